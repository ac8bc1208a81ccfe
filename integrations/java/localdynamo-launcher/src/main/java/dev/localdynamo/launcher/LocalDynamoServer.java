package dev.localdynamo.launcher;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One localdynamo process on 127.0.0.1.
 *
 * <pre>{@code
 * try (LocalDynamoServer server = LocalDynamoServer.builder().inMemory().start()) {
 *     DynamoDbClient client = DynamoDbClient.builder()
 *             .endpointOverride(server.endpoint()) ...
 * }
 * }</pre>
 *
 * <p>The server is started with {@code --port 0}: it binds a free port itself, so no other
 * process can take the port between choosing and binding it, and prints the address, which
 * {@link #endpoint()} returns. {@link #close()} stops it with SIGTERM. A JVM that exits without
 * closing it stops it from a shutdown hook.
 */
public final class LocalDynamoServer implements AutoCloseable {
    private static final Duration STOP_DEADLINE = Duration.ofSeconds(10);

    private final Process process;
    private final OutputDrain drain;
    private final URI endpoint;
    private final Thread shutdownHook;
    private Integer exitCode;

    private LocalDynamoServer(Process process, OutputDrain drain, URI endpoint) {
        this.process = process;
        this.drain = drain;
        this.endpoint = endpoint;
        this.shutdownHook = new Thread(process::destroy, "localdynamo-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * A builder for a server.
     *
     * @return a builder with no flags set and the binary from {@link BinaryLocator#find()}
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Where the server listens.
     *
     * @return the address it printed, e.g. {@code http://127.0.0.1:41523}
     */
    public URI endpoint() {
        return endpoint;
    }

    /**
     * An admin API client for this server.
     *
     * @return a client of {@code /_localdynamo}
     */
    public AdminClient admin() {
        return new AdminClient(endpoint);
    }

    /**
     * Whether the process is still running.
     *
     * @return true until it exits
     */
    public boolean isRunning() {
        return process.isAlive();
    }

    /**
     * Stops the server (SIGTERM, then a kill after 10 seconds) and waits for it.
     *
     * @return its exit code: 0 when it stopped cleanly
     */
    public synchronized int stop() {
        if (exitCode != null) {
            return exitCode;
        }
        process.destroy();
        try {
            if (!process.waitFor(STOP_DEADLINE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        exitCode = process.isAlive() ? -1 : process.exitValue();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down; the hook runs or ran anyway.
        }
        return exitCode;
    }

    /**
     * Stops the server; fails when it did not exit cleanly, so that a crash at shutdown is
     * not lost.
     *
     * @throws LocalDynamoException when the exit code is not 0
     */
    @Override
    public void close() {
        int code = stop();
        if (code != 0) {
            throw new LocalDynamoException("localdynamo exited with code " + code + "\n" + drain.tail());
        }
    }

    /**
     * The last lines the server printed.
     *
     * @return up to 60 lines of its standard output and error
     */
    public String outputTail() {
        return drain.tail();
    }

    /** Chooses the binary and flags of a server, then starts it. */
    public static final class Builder {
        private Path binary;
        private final List<String> arguments = new ArrayList<>();
        private Duration startupTimeout = Duration.ofSeconds(15);

        private Builder() {
        }

        /**
         * Runs this binary instead of the one {@link BinaryLocator#find()} finds.
         *
         * @param binary an executable localdynamo
         * @return this builder
         */
        public Builder binary(Path binary) {
            this.binary = Objects.requireNonNull(binary, "binary");
            return this;
        }

        /**
         * Keeps the data in memory ({@code --in-memory}).
         *
         * @return this builder
         */
        public Builder inMemory() {
            return argument("--in-memory");
        }

        /**
         * Gives each access key and region its own database ({@code --per-key-databases}).
         *
         * @return this builder
         */
        public Builder perKeyDatabases() {
            return argument("--per-key-databases");
        }

        /**
         * Adds a server flag, e.g. {@code --sample-items} (see the server's command-line
         * documentation). {@code --host} and {@code --port} are the launcher's.
         *
         * @param argument one command-line argument
         * @return this builder
         */
        public Builder argument(String argument) {
            arguments.add(Objects.requireNonNull(argument, "argument"));
            return this;
        }

        /**
         * Adds server flags.
         *
         * @param more command-line arguments, in order
         * @return this builder
         */
        public Builder arguments(List<String> more) {
            more.forEach(this::argument);
            return this;
        }

        /**
         * How long to wait for the server to report its address (default 15 seconds).
         *
         * @param timeout the start-up deadline
         * @return this builder
         */
        public Builder startupTimeout(Duration timeout) {
            this.startupTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * The command line the server is started with.
         *
         * @return the binary, then the flags
         */
        public List<String> command() {
            List<String> command = new ArrayList<>();
            command.add((binary != null ? binary : BinaryLocator.find()).toString());
            Collections.addAll(command, "--host", "127.0.0.1", "--port", "0");
            command.addAll(arguments);
            return command;
        }

        /**
         * Starts the server and waits until it listens.
         *
         * @return the running server
         * @throws LocalDynamoException when it cannot be started, exits during start-up or
         *     does not report its address in time
         */
        public LocalDynamoServer start() {
            List<String> command = command();
            Process process;
            try {
                process = new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                        .start();
            } catch (IOException e) {
                throw new LocalDynamoException("cannot run " + String.join(" ", command), e);
            }
            OutputDrain drain = new OutputDrain(process.getInputStream());
            Thread reader = new Thread(drain, "localdynamo-output");
            reader.setDaemon(true);
            reader.start();
            try {
                URI endpoint = drain.endpoint().get(startupTimeout.toMillis(), TimeUnit.MILLISECONDS);
                return new LocalDynamoServer(process, drain, endpoint);
            } catch (ExecutionException e) {
                throw failed(process, drain, command, "exited during start-up");
            } catch (TimeoutException e) {
                throw failed(process, drain, command,
                        "did not report its address within " + startupTimeout.toSeconds() + " s");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw failed(process, drain, command, "start-up was interrupted");
            }
        }

        private static LocalDynamoException failed(Process process, OutputDrain drain,
                List<String> command, String what) {
            process.destroyForcibly();
            String code = "";
            try {
                code = " (code " + process.waitFor() + ")";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new LocalDynamoException("localdynamo " + what + code + ": "
                    + String.join(" ", command) + "\n" + drain.tail());
        }
    }
}
