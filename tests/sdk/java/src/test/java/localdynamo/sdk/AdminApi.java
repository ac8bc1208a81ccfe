package localdynamo.sdk;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The emulator's admin API (docs/admin-api.md) over java.net.http: the test clock,
 * the TTL sweep and injected faults. Bodies are small JSON literals; the one value
 * read back (the clock's NowMillis) is picked out by a pattern.
 */
public final class AdminApi {
    private static final Pattern NOW_MILLIS = Pattern.compile("\"NowMillis\"\\s*:\\s*(\\d+)");

    private final HttpClient http = HttpClient.newHttpClient();
    private final URI base;

    public AdminApi(LocalDynamo server) {
        this.base = server.endpoint().resolve("/_localdynamo/");
    }

    public void freezeClock() {
        post("clock", "{\"Freeze\": true}");
    }

    public void advanceClockSeconds(long seconds) {
        post("clock", "{\"AdvanceSeconds\": " + seconds + "}");
    }

    /** Back to the machine's time, running: every scenario ends this way. */
    public void resetClock() {
        post("clock", "{\"Reset\": true, \"Freeze\": false}");
    }

    public long clockMillis() {
        Matcher m = NOW_MILLIS.matcher(get("clock"));
        if (!m.find()) {
            throw new IllegalStateException("no NowMillis in the clock's answer");
        }
        return Long.parseLong(m.group(1));
    }

    /** Deletes the TTL items due by the test clock now; answers what it deleted. */
    public String sweep() {
        return post("sweep", "{}");
    }

    public String addFault(String ruleJson) {
        return post("faults", ruleJson);
    }

    public String faults() {
        return get("faults");
    }

    private String get(String path) {
        return send(HttpRequest.newBuilder(base.resolve(path)).GET().build());
    }

    private String post(String path, String json) {
        return send(HttpRequest.newBuilder(base.resolve(path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    private String send(HttpRequest request) {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(request.method() + " " + request.uri() + ": "
                        + response.statusCode() + " " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
