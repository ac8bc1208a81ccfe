package dev.localdynamo.launcher;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the server's output for as long as it runs: a pipe nobody reads fills up and blocks
 * the server. Finds the address in the {@code localdynamo listening on http://...} line and
 * keeps the last lines for error messages.
 */
final class OutputDrain implements Runnable {
    private static final Pattern LISTENING = Pattern.compile("localdynamo listening on (http://\\S+)");
    private static final int KEPT_LINES = 60;

    private final InputStream output;
    private final CompletableFuture<URI> endpoint = new CompletableFuture<>();
    private final Deque<String> tail = new ArrayDeque<>();

    OutputDrain(InputStream output) {
        this.output = output;
    }

    /** Completes with the address, or exceptionally when the output ends before it. */
    CompletableFuture<URI> endpoint() {
        return endpoint;
    }

    @Override
    public void run() {
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(output, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                keep(line);
                if (!endpoint.isDone()) {
                    Matcher match = LISTENING.matcher(line);
                    if (match.find()) {
                        endpoint.complete(URI.create(match.group(1)));
                    }
                }
            }
        } catch (IOException e) {
            // The process is gone and its pipe closed; what was read is in the tail.
        } finally {
            endpoint.completeExceptionally(new LocalDynamoException(
                    "localdynamo's output ended before it reported its address"));
        }
    }

    private synchronized void keep(String line) {
        if (tail.size() == KEPT_LINES) {
            tail.removeFirst();
        }
        tail.addLast(line);
    }

    /** The last lines the server printed, for an error message. */
    synchronized String tail() {
        return "--- localdynamo output ---\n" + String.join("\n", tail);
    }
}
