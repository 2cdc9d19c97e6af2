package dev.fanin.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code moto_server} child process on a free loopback port. Its output goes to a log file (never to our stdout),
 * and it is stopped on {@link #close()} and, as a backstop, by a JVM shutdown hook.
 */
final class MotoServer implements Backend {

    static final List<String> DEFAULT_COMMAND = List.of("moto_server");
    private static final String SERIALISED_LAUNCHER = "moto_serialized_dynamodb.py";

    /**
     * The command the testkit starts: moto with every DynamoDB request serialised (see the launcher script: moto
     * checks a condition and writes without a lock, so racing conditional writes could both apply, which DynamoDB
     * never allows), when the Python that runs moto can import it; else plain {@code moto_server}.
     */
    static List<String> preferredCommand(Path workDirectory) {
        try {
            Process probe = new ProcessBuilder("python3", "-c", "import moto.server, werkzeug.serving")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!probe.waitFor(30, TimeUnit.SECONDS) || probe.exitValue() != 0) {
                probe.destroyForcibly();
                return DEFAULT_COMMAND;
            }
            Files.createDirectories(workDirectory);
            Path script = workDirectory.resolve(SERIALISED_LAUNCHER);
            try (var in = MotoServer.class.getResourceAsStream(SERIALISED_LAUNCHER)) {
                if (in == null) {
                    return DEFAULT_COMMAND;
                }
                Files.write(script, in.readAllBytes());
            }
            return List.of("python3", script.toString());
        } catch (IOException e) {
            return DEFAULT_COMMAND;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return DEFAULT_COMMAND;
        }
    }
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);

    private final Process process;
    private final URI endpoint;
    private final Path log;
    private final Thread shutdownHook;

    private final boolean serialised;

    private MotoServer(Process process, URI endpoint, Path log, boolean serialised) {
        this.serialised = serialised;
        this.process = process;
        this.endpoint = endpoint;
        this.log = log;
        this.shutdownHook = new Thread(this::stopProcess, "moto_server-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts {@code command -H 127.0.0.1 -p <free port>} and waits until {@code GET /moto-api/} answers.
     *
     * @throws NoLocalAwsEndpointException if the command cannot be run or does not answer in time
     */
    static MotoServer start(List<String> command, Path logDirectory) {
        int port = freeLoopbackPort();
        Path log = logDirectory.resolve("moto_server-" + port + ".log");
        List<String> commandLine = new ArrayList<>(command);
        commandLine.addAll(List.of("-H", "127.0.0.1", "-p", Integer.toString(port)));
        Process process;
        try {
            Files.createDirectories(logDirectory);
            process = new ProcessBuilder(commandLine)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.PIPE)
                    .start();
            process.getOutputStream().close();
        } catch (IOException cannotRun) {
            throw new NoLocalAwsEndpointException("cannot run " + String.join(" ", commandLine) + ": "
                    + cannotRun.getMessage(), cannotRun);
        }
        URI endpoint = URI.create("http://127.0.0.1:" + port);
        MotoServer server = new MotoServer(process, endpoint, log, !command.equals(DEFAULT_COMMAND));
        server.awaitAnswer();
        return server;
    }

    private void awaitAnswer() {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                close();
                throw new NoLocalAwsEndpointException("moto_server exited with code " + process.exitValue()
                        + " before answering; its output is in " + log, null);
            }
            if (MotoReset.answers(endpoint, POLL_TIMEOUT)) {
                return;
            }
            sleep(Duration.ofMillis(100));
        }
        close();
        throw new NoLocalAwsEndpointException("moto_server did not answer on " + endpoint + " within "
                + STARTUP_TIMEOUT.toSeconds() + " s; its output is in " + log, null);
    }

    @Override
    public URI endpoint() {
        return endpoint;
    }

    @Override
    public String kind() {
        return "moto";
    }

    @Override
    public boolean atomicConditionalWrites() {
        return serialised;
    }

    @Override
    public boolean reset() {
        return MotoReset.reset(endpoint, Duration.ofSeconds(10));
    }

    /** Where moto_server writes its output. */
    Path log() {
        return log;
    }

    boolean isRunning() {
        return process.isAlive();
    }

    @Override
    public void close() {
        stopProcess();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // The hook is running or has run; nothing left to unregister.
        }
    }

    /** SIGTERM (moto exits cleanly on it), then SIGKILL after a grace period; children too (pyenv shims). */
    private void stopProcess() {
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        children.forEach(ProcessHandle::destroy);
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                children.forEach(ProcessHandle::destroyForcibly);
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException interrupted) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static int freeLoopbackPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException noPort) {
            throw new NoLocalAwsEndpointException("no free loopback port for moto_server", noPort);
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new NoLocalAwsEndpointException("interrupted while waiting for moto_server", interrupted);
        }
    }
}
