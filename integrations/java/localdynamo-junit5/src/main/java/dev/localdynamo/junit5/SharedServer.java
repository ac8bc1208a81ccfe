package dev.localdynamo.junit5;

import dev.localdynamo.launcher.AdminClient;
import dev.localdynamo.launcher.LocalDynamoServer;
import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * The run's one server, kept in the root context's store and closed when the run ends: either
 * a process this run started ({@code --in-memory --per-key-databases} plus the
 * {@code localdynamo.args} configuration parameter), or the running server
 * {@code LOCALDYNAMO_URL} names.
 */
final class SharedServer implements AutoCloseable {
    static final String URL_VARIABLE = "LOCALDYNAMO_URL";
    static final String ARGS_PARAMETER = "localdynamo.args";

    private final LocalDynamoServer process;
    private final URI endpoint;
    // Keys of a run against a server that outlives it carry the run's id, so that two runs
    // against one server do not meet; a server of our own has no other run to meet.
    private final String keyPrefix;

    private SharedServer(LocalDynamoServer process, URI endpoint, String keyPrefix) {
        this.process = process;
        this.endpoint = endpoint;
        this.keyPrefix = keyPrefix;
    }

    static SharedServer open(Optional<String> extraArguments) {
        String url = System.getenv(URL_VARIABLE);
        if (url != null && !url.isEmpty()) {
            return attach(URI.create(url.replaceAll("/+$", "")));
        }
        List<String> extra = extraArguments.map(String::trim).filter(s -> !s.isEmpty())
                .map(s -> Arrays.asList(s.split("\\s+"))).orElse(List.of());
        LocalDynamoServer server = LocalDynamoServer.builder()
                .inMemory()
                .perKeyDatabases()
                .arguments(extra)
                .start();
        return new SharedServer(server, server.endpoint(), "junit-");
    }

    private static SharedServer attach(URI endpoint) {
        String runId = UUID.randomUUID().toString().substring(0, 8);
        String probe = "junit-" + runId + "-probe";
        String scope = new AdminClient(endpoint).scope(probe, LocalDynamoDatabase.REGION).orElse("");
        if (!scope.startsWith("PER_KEY")) {
            throw new ExtensionConfigurationException(URL_VARIABLE + "=" + endpoint
                    + " keeps one database for every access key (scope " + scope + "): start it with "
                    + "--per-key-databases so that each test class gets its own database");
        }
        return new SharedServer(null, endpoint, "junit-" + runId + "-");
    }

    URI endpoint() {
        return endpoint;
    }

    /** The access key of a test class: readable, unique within the run, snapshot-name safe. */
    String accessKeyFor(Class<?> testClass) {
        String simple = testClass.getSimpleName().replaceAll("[^A-Za-z0-9._-]", "_");
        String hash = String.format("%08x", testClass.getName().hashCode());
        return keyPrefix + simple + "-" + hash;
    }

    @Override
    public void close() {
        if (process != null) {
            process.close();
        }
    }

    @Override
    public String toString() {
        return "localdynamo at " + endpoint;
    }
}
