package dev.localdynamo.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BinaryLocatorTest {
    private static final ClassLoader NO_RESOURCES = new URLClassLoader(new URL[0], null);

    @Test
    void the_variable_wins_and_must_name_an_executable(@TempDir Path dir) throws Exception {
        Path binary = Files.createFile(dir.resolve("localdynamo"));
        LocalDynamoException error = assertThrows(LocalDynamoException.class,
                () -> BinaryLocator.find(Map.of("LOCALDYNAMO_BIN", binary.toString()), NO_RESOURCES));
        assertTrue(error.getMessage().contains("not executable"), error.getMessage());
        assertTrue(binary.toFile().setExecutable(true));
        assertEquals(binary, BinaryLocator.find(Map.of("LOCALDYNAMO_BIN", binary.toString(), "PATH", "/nowhere"),
                NO_RESOURCES));
    }

    @Test
    void falls_back_to_the_path(@TempDir Path dir) throws Exception {
        Path binary = Files.createFile(dir.resolve("localdynamo"));
        assertTrue(binary.toFile().setExecutable(true));
        assertEquals(binary, BinaryLocator.find(Map.of("PATH", "/nowhere:" + dir), NO_RESOURCES));
    }

    @Test
    void says_what_to_do_when_there_is_none() {
        LocalDynamoException error = assertThrows(LocalDynamoException.class,
                () -> BinaryLocator.find(Map.of("PATH", "/nowhere"), NO_RESOURCES));
        assertTrue(error.getMessage().contains("LOCALDYNAMO_BIN"), error.getMessage());
    }
}
