package io.quotient.it.soak;

import io.quotient.it.deploy.QuotientApi;
import io.quotient.it.deploy.QuotientService;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * One replica of the service under the soak: a process that can be SIGKILLed and started again with the same
 * identity, or paused (SIGSTOP) and resumed (SIGCONT). A restart runs in the background (the service takes a few
 * seconds to start), and the replica counts as unavailable meanwhile.
 */
final class Replica {

    private final String name;
    private final Supplier<QuotientService> starter;
    private final AtomicReference<QuotientService> service = new AtomicReference<>();
    private volatile boolean paused;
    private volatile Thread restarting;

    Replica(String name, Supplier<QuotientService> starter) {
        this.name = name;
        this.starter = starter;
    }

    String name() {
        return name;
    }

    void start() {
        service.set(starter.get());
    }

    /** The API of the running, unpaused replica. */
    Optional<QuotientApi> api() {
        QuotientService current = service.get();
        return current != null && !paused && current.alive() ? Optional.of(current.api()) : Optional.empty();
    }

    boolean available() {
        return api().isPresent();
    }

    /** SIGKILL, then a fresh process with the same identity in the background. */
    void killAndRestart() {
        QuotientService dead = service.getAndSet(null);
        if (dead != null) {
            dead.kill();
        }
        Thread thread = new Thread(() -> service.set(starter.get()), "soak-restart-" + name);
        thread.setDaemon(true);
        restarting = thread;
        thread.start();
    }

    /** Waits (bounded) for a background restart to finish. */
    void awaitRestarted(long timeoutMs) throws InterruptedException {
        Thread thread = restarting;
        if (thread != null) {
            thread.join(timeoutMs);
        }
    }

    void pause() {
        signal("STOP");
        paused = true;
    }

    void resume() {
        signal("CONT");
        paused = false;
    }

    void close() {
        QuotientService current = service.getAndSet(null);
        if (current != null) {
            if (paused) {
                resume();
            }
            current.close();
        }
    }

    /** Sends a signal to this replica's process (a child of this JVM, found by its identity argument). */
    private void signal(String signal) {
        long pid = ProcessHandle.current()
                .children()
                .filter(p -> commandLine(p.pid()).contains("\0--quotient.kubernetes.identity=" + name + "\0"))
                .mapToLong(ProcessHandle::pid)
                .findFirst()
                .orElseThrow(
                        () -> new IllegalStateException("no process of replica " + name + " to send SIG" + signal));
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                    .inheritIO()
                    .start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pid + " (replica " + name + ") failed");
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot send SIG" + signal + " to replica " + name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling replica " + name, e);
        }
    }

    /** The process's whole command line, NUL-separated (ProcessHandle.Info truncates long ones). */
    private static String commandLine(long pid) {
        try {
            return new String(
                    Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
