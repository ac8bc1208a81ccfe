package dev.localdynamo.launcher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BundledBinaryTest {
    @Test
    void chooses_the_resource_by_os_arch() {
        assertEquals(Optional.of("native/linux-amd64/localdynamo"), BundledBinary.resourceName("Linux", "amd64"));
        assertEquals(Optional.of("native/linux-amd64/localdynamo"), BundledBinary.resourceName("Linux", "x86_64"));
        assertEquals(Optional.of("native/linux-arm64/localdynamo"), BundledBinary.resourceName("Linux", "aarch64"));
        assertEquals(Optional.of("native/linux-arm64/localdynamo"), BundledBinary.resourceName("Linux", "arm64"));
        assertEquals(Optional.empty(), BundledBinary.resourceName("Linux", "ppc64le"));
        assertEquals(Optional.empty(), BundledBinary.resourceName("Mac OS X", "aarch64"));
    }

    @Test
    void extracts_the_resource_to_an_executable_copy(@TempDir Path jarRoot) throws Exception {
        byte[] content = {0x7f, 'E', 'L', 'F', 1, 2, 3};
        Path resource = jarRoot.resolve("native/linux-arm64/localdynamo");
        Files.createDirectories(resource.getParent());
        Files.write(resource, content);
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jarRoot.toUri().toURL()}, null)) {
            Path extracted = BundledBinary.extract(loader, "Linux", "aarch64").orElseThrow();
            assertArrayEquals(content, Files.readAllBytes(extracted));
            assertTrue(Files.isExecutable(extracted));
            assertEquals(Optional.empty(), BundledBinary.extract(loader, "Linux", "amd64"));
        }
    }

    @Test
    void puts_the_models_where_the_binary_looks_for_them(@TempDir Path jarRoot) throws Exception {
        Path resource = jarRoot.resolve("native/linux-amd64/localdynamo");
        Files.createDirectories(resource.getParent());
        Files.write(resource, new byte[] {1});
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(jarRoot.resolve("native/fixtures.zip")))) {
            zip.putNextEntry(new ZipEntry("ecommerce/tables/ecommerce.json"));
            zip.write("{}".getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
        }
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jarRoot.toUri().toURL()}, null)) {
            Path binary = BundledBinary.extract(loader, "Linux", "x86_64").orElseThrow();
            assertEquals("bin", binary.getParent().getFileName().toString());
            Path table = binary.getParent().resolveSibling("share/localdynamo/fixtures/ecommerce/tables/ecommerce.json");
            assertEquals("{}", Files.readString(table));
        }
    }
}
