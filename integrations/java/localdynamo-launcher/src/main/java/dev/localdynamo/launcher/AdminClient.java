package dev.localdynamo.launcher;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's admin API under {@code /_localdynamo} (reset, snapshots, the test clock...), as
 * JSON over HTTP. Answers are returned as the JSON text the server sent.
 *
 * <p>A namespace names one database: {@code "<access key>/<region>"} on a server started with
 * {@code --per-key-databases}.
 */
public final class AdminClient {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    private final URI endpoint;

    /**
     * A client of the server at {@code endpoint}.
     *
     * @param endpoint the server's address, e.g. {@code http://127.0.0.1:8000}
     */
    public AdminClient(URI endpoint) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    }

    /**
     * Drops every table of one database and, when {@code models} is true, loads the preloaded
     * models into it again.
     *
     * @param namespace the database
     * @param models whether the preloaded models belong in it
     * @return the server's answer ({@code {"Tables", "Indexes", "Items", "Millis"}})
     */
    public String reset(String namespace, boolean models) {
        return post("/reset", "{\"Namespace\":" + Json.string(namespace) + ",\"Models\":" + models + "}");
    }

    /**
     * Saves one database as a named snapshot, replacing an earlier one of that name.
     *
     * @param name letters, digits, {@code .}, {@code _} or {@code -}
     * @param namespace the database
     * @return the server's answer
     */
    public String snapshot(String name, String namespace) {
        return post("/snapshots", "{\"Name\":" + Json.string(name)
                + ",\"Namespace\":" + Json.string(namespace) + "}");
    }

    /**
     * Puts a snapshot back into a database (the one it came from, or another).
     *
     * @param name the snapshot
     * @param namespace the database to restore it into
     * @return the server's answer
     */
    public String restore(String name, String namespace) {
        return post("/snapshots/" + name + "/restore", "{\"Namespace\":" + Json.string(namespace) + "}");
    }

    /**
     * Forgets a snapshot (they live in the server's memory).
     *
     * @param name the snapshot
     * @return the server's answer
     */
    public String deleteSnapshot(String name) {
        return call("DELETE", "/snapshots/" + name, null);
    }

    /**
     * How the server scopes databases for a key and region.
     *
     * @param accessKey an access key id
     * @param region a region
     * @return the {@code Scope} field of {@code GET /_localdynamo/namespace}, if present
     */
    public Optional<String> scope(String accessKey, String region) {
        String answer = call("GET", "/namespace?accessKey=" + URLEncoder.encode(accessKey, StandardCharsets.UTF_8)
                + "&region=" + URLEncoder.encode(region, StandardCharsets.UTF_8), null);
        Matcher match = Pattern.compile("\"Scope\"\\s*:\\s*\"([^\"]*)\"").matcher(answer);
        return match.find() ? Optional.of(match.group(1)) : Optional.empty();
    }

    /**
     * {@code POST} to an admin path.
     *
     * @param path the path below {@code /_localdynamo}, e.g. {@code /clock}
     * @param json the request body
     * @return the answer's body
     */
    public String post(String path, String json) {
        return call("POST", path, json);
    }

    /**
     * Any admin call.
     *
     * @param method {@code GET}, {@code POST} or {@code DELETE}
     * @param path the path below {@code /_localdynamo}, e.g. {@code /clock}
     * @param json the request body, or null for none
     * @return the answer's body
     * @throws LocalDynamoException on a transport error or an answer other than 2xx
     */
    public String call(String method, String path, String json) {
        HttpRequest request = HttpRequest.newBuilder(endpoint.resolve("/_localdynamo" + path))
                .timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8))
                .build();
        HttpResponse<String> response;
        try {
            response = HTTP.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new LocalDynamoException(method + " " + request.uri() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalDynamoException(method + " " + request.uri() + " was interrupted", e);
        }
        if (response.statusCode() / 100 != 2) {
            throw new LocalDynamoException(method + " " + request.uri() + " answered "
                    + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }
}
