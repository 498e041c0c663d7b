package io.quotient.it.deploy;

import io.quotient.adapters.k8s.leadership.KubernetesLeadershipGate;
import io.quotient.app.QuotientApplication;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The Quotient service under test in Kubernetes mode, pointed at the test control plane and one namespace: either
 * inside the test JVM (fast to start) or as a process of its own (so that a test can SIGKILL it).
 */
public final class QuotientService implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private final String name;
    private final ConfigurableApplicationContext context;
    private final Process process;
    private final Path log;
    private final QuotientApi api;
    private final int port;

    private QuotientService(String name, ConfigurableApplicationContext context, Process process, Path log, int port) {
        this.name = name;
        this.context = context;
        this.process = process;
        this.log = log;
        this.api = new QuotientApi(URI.create("http://127.0.0.1:" + port));
        this.port = port;
    }

    /** The service's arguments: Kubernetes mode on the test plane, a fast re-queue so tests need not wait long. */
    private static List<String> arguments(
            ControlPlane plane, String namespace, Path teamsFile, int port, String identity, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "--server.port=" + port,
                "--quotient.cluster.mode=kubernetes",
                "--quotient.kubeconfig=" + plane.kubeconfig(),
                "--quotient.kubernetes.namespace=" + namespace,
                "--quotient.kubernetes.identity=" + identity,
                "--quotient.teams-file=" + teamsFile,
                "--quotient.teams-poll-interval=1s",
                "--quotient.schedules.requeue-interval=1s",
                "--quotient.schedules.reclaim-interval=2s",
                "--quotient.scheduling.stop-grace=5s",
                // tests of scheduling call without tokens; TenancyIT turns the Kubernetes checks on
                "--quotient.access.mode=open"));
        // an extra argument replaces the test default of the same property (Spring would join both values)
        for (String argument : extra) {
            String key = argument.contains("=") ? argument.substring(0, argument.indexOf('=') + 1) : argument;
            args.removeIf(existing -> existing.startsWith(key));
            args.add(argument);
        }
        return args;
    }

    /** Starts the service in this JVM (one at a time: the periodic jobs' scheduler has a JVM-wide name). */
    static QuotientService inProcess(ControlPlane plane, String namespace, Path teamsFile, String... extra) {
        int port = freePort();
        ConfigurableApplicationContext context = new SpringApplication(QuotientApplication.class)
                .run(arguments(plane, namespace, teamsFile, port, "in-process", extra)
                        .toArray(String[]::new));
        QuotientService service = new QuotientService("in-process", context, null, null, port);
        // a fresh Lease is taken at once; waiting for it keeps the first deploy from being left to the re-queue
        Await.until(
                "the in-process service to lead",
                () -> context.getBean(KubernetesLeadershipGate.class).isLeader(),
                leading -> leading);
        return service;
    }

    /** Starts the service as a process of its own ({@code quotient serve}), waiting until it answers. */
    public static QuotientService process(
            String name, ControlPlane plane, String namespace, Path teamsFile, Path logDir, String... extra) {
        return process(name, plane, namespace, teamsFile, logDir, Map.of(), extra);
    }

    /** The same with extra environment variables of the process (KUBECONFIG, say). */
    static QuotientService process(
            String name,
            ControlPlane plane,
            String namespace,
            Path teamsFile,
            Path logDir,
            Map<String, String> environment,
            String... extra) {
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-cp",
                System.getProperty("java.class.path"),
                "io.quotient.app.cli.QuotientCli",
                "serve"));
        command.addAll(arguments(plane, namespace, teamsFile, port, name, extra));
        Path log = logDir.resolve("quotient-" + name + ".log");
        try {
            Files.createDirectories(logDir);
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().putAll(environment);
            Process process = builder.start();
            QuotientService service = new QuotientService(name, null, process, log, port);
            service.awaitHealthy();
            return service;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the service process " + name, e);
        }
    }

    public QuotientApi api() {
        return api;
    }

    /** A bean of the service's context (in-process only): a test may watch what it sends. */
    <T> T bean(Class<T> type) {
        if (context == null) {
            throw new IllegalStateException("service " + name + " runs as a process of its own: no beans to read");
        }
        return context.getBean(type);
    }

    /** The service's log so far (a process of its own only). */
    public String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The API as a caller presenting this bearer token. */
    public QuotientApi api(String bearerToken) {
        return api.withToken(bearerToken);
    }

    public String name() {
        return name;
    }

    /** Where the service listens ({@code host:port}), e.g. as a Prometheus scrape target. */
    String address() {
        return "127.0.0.1:" + port;
    }

    /** SIGKILL: the process dies at whatever it was doing, as in a crash. */
    public void kill() {
        if (process == null) {
            throw new IllegalStateException("an in-process service cannot be killed; start it with process()");
        }
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public boolean alive() {
        return process == null ? context.isActive() : process.isAlive();
    }

    @Override
    public void close() {
        if (context != null) {
            context.close();
        } else if (process.isAlive()) {
            process.destroy();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void awaitHealthy() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!api.healthy()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                process.destroyForcibly();
                throw new AssertionError("the service process " + name + " did not become healthy within "
                        + START_TIMEOUT.toSeconds() + " s; the end of its log " + log + ":\n" + tail(log));
            }
            sleep(Duration.ofMillis(250));
        }
    }

    /** The last 40 lines of a log file, for a failure message. */
    static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free local port", e);
        }
    }
}
