package io.quotient.enforcer.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Real child processes for tests (the fake NVML lists real PIDs); all killed on close. */
public final class ChildProcesses implements AutoCloseable {

    private final List<Process> started = new ArrayList<>();

    /** A process that exits on SIGTERM. */
    public Process sleeper() {
        return start("sleep", "600");
    }

    /** A process that ignores SIGTERM (the disposition survives exec), so only SIGKILL ends it. */
    public Process termIgnoring() {
        Process process = start("sh", "-c", "trap '' TERM; echo ready; exec sleep 600");
        try {
            // wait until the trap is set, or a SIGTERM could still hit the default disposition
            if (process.getInputStream().read() < 0) {
                throw new IllegalStateException("the SIGTERM-ignoring helper exited at once");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return process;
    }

    private Process start(String... command) {
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            started.add(process);
            return process;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        started.forEach(Process::destroyForcibly);
        for (Process process : started) {
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
