package dev.localdynamo.launcher;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the server binary: {@code LOCALDYNAMO_BIN}, else the one this jar carries, else
 * {@code localdynamo} on the {@code PATH} — the order the other integrations use.
 */
public final class BinaryLocator {
    /** The environment variable naming the binary. */
    public static final String BIN_VARIABLE = "LOCALDYNAMO_BIN";

    private static final Object LOCK = new Object();
    // One extraction per JVM: every server started from the bundled binary shares it.
    private static Path extracted;

    private BinaryLocator() {
    }

    /**
     * The binary to run, from the process's environment.
     *
     * @return an executable file
     * @throws LocalDynamoException when none is found, or {@code LOCALDYNAMO_BIN} names a file
     *     that is not executable
     */
    public static Path find() {
        return find(System.getenv(), BinaryLocator.class.getClassLoader());
    }

    static Path find(Map<String, String> environment, ClassLoader resources) {
        String configured = environment.get(BIN_VARIABLE);
        if (configured != null && !configured.isEmpty()) {
            return requireExecutable(Path.of(configured), BIN_VARIABLE);
        }
        Optional<Path> bundled = bundled(resources);
        if (bundled.isPresent()) {
            return bundled.get();
        }
        Optional<Path> onPath = onPath(environment.get("PATH"));
        if (onPath.isPresent()) {
            return onPath.get();
        }
        throw new LocalDynamoException("localdynamo binary not found: set " + BIN_VARIABLE
                + ", use a localdynamo-launcher jar that carries it (Linux amd64, arm64), put "
                + "localdynamo on the PATH, or point LOCALDYNAMO_URL at a running server");
    }

    private static Optional<Path> bundled(ClassLoader resources) {
        synchronized (LOCK) {
            if (extracted == null || !Files.isExecutable(extracted)) {
                extracted = BundledBinary.extract(resources, System.getProperty("os.name"),
                        System.getProperty("os.arch")).orElse(null);
            }
            return Optional.ofNullable(extracted);
        }
    }

    static Optional<Path> onPath(String path) {
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, "localdynamo");
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate.toAbsolutePath());
            }
        }
        return Optional.empty();
    }

    static Path requireExecutable(Path binary, String source) {
        if (!Files.isRegularFile(binary) || !Files.isExecutable(binary)) {
            throw new LocalDynamoException("localdynamo binary not found or not executable: "
                    + binary + " (from " + source + ")");
        }
        return binary.toAbsolutePath();
    }
}
