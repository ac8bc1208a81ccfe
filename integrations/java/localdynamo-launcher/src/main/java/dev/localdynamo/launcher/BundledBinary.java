package dev.localdynamo.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * The server binaries a release jar carries as resources, {@code native/linux-amd64/localdynamo}
 * and {@code native/linux-arm64/localdynamo}, with the preloaded models beside them
 * ({@code native/fixtures.zip}), and their extraction to a directory laid out as the release
 * tarball is: {@code bin/localdynamo} and {@code share/localdynamo/fixtures/}, which is where
 * the binary looks for its models.
 */
final class BundledBinary {
    static final String FIXTURES = "native/fixtures.zip";

    private BundledBinary() {
    }

    /**
     * The resource holding the binary for this operating system and CPU, or empty where the
     * jar could carry none (the binaries are Linux ones).
     */
    static Optional<String> resourceName(String osName, String osArch) {
        if (!osName.toLowerCase(Locale.ROOT).startsWith("linux")) {
            return Optional.empty();
        }
        switch (osArch.toLowerCase(Locale.ROOT)) {
            case "amd64":
            case "x86_64":
                return Optional.of("native/linux-amd64/localdynamo");
            case "aarch64":
            case "arm64":
                return Optional.of("native/linux-arm64/localdynamo");
            default:
                return Optional.empty();
        }
    }

    /**
     * Copies the binary for this machine (and the models, when the jar has them) out of
     * {@code loader}'s resources into a new temporary directory, deleted when the JVM exits;
     * returns the executable, or empty when the jar carries no binary for this machine.
     */
    static Optional<Path> extract(ClassLoader loader, String osName, String osArch) {
        Optional<String> name = resourceName(osName, osArch);
        if (name.isEmpty()) {
            return Optional.empty();
        }
        try (InputStream in = loader.getResourceAsStream(name.get())) {
            if (in == null) {
                return Optional.empty();
            }
            Path root = temporary(Files.createTempDirectory("localdynamo-"));
            Path binary = temporary(Files.createDirectory(root.resolve("bin"))).resolve("localdynamo");
            Files.copy(in, binary, StandardCopyOption.REPLACE_EXISTING);
            temporary(binary);
            if (!binary.toFile().setExecutable(true, true)) {
                throw new LocalDynamoException("cannot make " + binary + " executable");
            }
            extractFixtures(loader, root);
            return Optional.of(binary);
        } catch (IOException e) {
            throw new LocalDynamoException("cannot extract the bundled localdynamo binary "
                    + name.get() + ": " + e.getMessage(), e);
        }
    }

    private static void extractFixtures(ClassLoader loader, Path root) throws IOException {
        try (InputStream in = loader.getResourceAsStream(FIXTURES)) {
            if (in == null) {
                return;
            }
            Path share = temporary(Files.createDirectories(root.resolve("share")));
            Path fixtures = temporary(Files.createDirectories(temporary(
                    Files.createDirectories(share.resolve("localdynamo"))).resolve("fixtures")));
            try (ZipInputStream zip = new ZipInputStream(in)) {
                for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
                    Path target = fixtures.resolve(entry.getName()).normalize();
                    if (!target.startsWith(fixtures)) {
                        throw new IOException("entry outside the fixtures: " + entry.getName());
                    }
                    if (entry.isDirectory()) {
                        createDirectories(target);
                    } else {
                        createDirectories(target.getParent());
                        Files.copy(zip, target, StandardCopyOption.REPLACE_EXISTING);
                        temporary(target);
                    }
                }
            }
        }
    }

    private static void createDirectories(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            createDirectories(dir.getParent());
            temporary(Files.createDirectory(dir));
        }
    }

    /** Deleted at exit; registered parents first, so that they are deleted after their contents. */
    private static Path temporary(Path path) {
        path.toFile().deleteOnExit();
        return path;
    }
}
