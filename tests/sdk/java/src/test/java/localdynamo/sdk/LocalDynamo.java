package localdynamo.sdk;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real localdynamo binary, started once per JVM by {@link LocalDynamoExtension}.
 * The binary is LOCALDYNAMO_BIN, else ../../../build/localdynamo from the suite's folder.
 */
public final class LocalDynamo implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("listening on (http://\\S+)");
    private static final long START_TIMEOUT_SECONDS = 20;

    private final Process process;
    private final URI endpoint;

    private LocalDynamo(Process process, URI endpoint) {
        this.process = process;
        this.endpoint = endpoint;
    }

    /** Starts the server; `--port 0` lets it pick a free port, which its first line names. */
    public static LocalDynamo start() throws IOException, InterruptedException {
        Path binary = binary();
        if (!Files.isExecutable(binary)) {
            throw new IllegalStateException("no localdynamo binary at " + binary
                    + " (set LOCALDYNAMO_BIN or build it)");
        }
        Process process = new ProcessBuilder(List.of(binary.toString(), "--in-memory",
                "--host", "127.0.0.1", "--port", "0", "--throttle"))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        CompletableFuture<URI> listening = new CompletableFuture<>();
        Thread reader = new Thread(() -> readStdout(process, listening), "localdynamo-stdout");
        reader.setDaemon(true);
        reader.start();
        try {
            return new LocalDynamo(process, listening.get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IllegalStateException("localdynamo did not print its `listening on` line", e);
        }
    }

    // Reads the server's stdout for the whole run: the pipe must keep draining
    // after the `listening on` line or a chatty server would block on it.
    private static void readStdout(Process process, CompletableFuture<URI> listening) {
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                Matcher m = LISTENING.matcher(line);
                if (!listening.isDone() && m.find()) {
                    listening.complete(URI.create(m.group(1)));
                }
            }
        } catch (IOException e) {
            listening.completeExceptionally(e);
        }
        listening.completeExceptionally(new IllegalStateException("localdynamo's stdout closed"));
    }

    private static Path binary() {
        String fromEnv = System.getenv("LOCALDYNAMO_BIN");
        if (fromEnv != null && !fromEnv.isEmpty()) {
            return Path.of(fromEnv);
        }
        String suite = System.getProperty("localdynamo.suite.dir", System.getProperty("user.dir"));
        return Path.of(suite, "..", "..", "..", "build", "localdynamo").normalize();
    }

    public URI endpoint() {
        return endpoint;
    }

    /** SIGTERM (Process.destroy on Linux), then insists on a clean exit. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("localdynamo did not stop within 10 s of SIGTERM");
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("localdynamo exited with " + process.exitValue());
        }
    }
}
