package io.quotient.enforcer.realgpu;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Real CUDA processes for {@link RealDriverCheck}: each runs {@code cuda_hog.py}, which holds a share of
 * the GPU's memory and keeps its multiprocessors busy; all are killed on close.
 */
final class CudaProcesses implements AutoCloseable {

    private static final long READY_TIMEOUT_SECONDS = 120;

    /** One CUDA process; {@link #grow} asks it to hold more memory. */
    record Hog(Process process, BufferedReader output, Writer input) {

        int pid() {
            return (int) process.pid();
        }

        void grow(double fractionOfTotal) throws IOException {
            input.write(fractionOfTotal + "\n");
            input.flush();
            awaitReady(this);
        }
    }

    private final Path script;
    private final List<Hog> started = new ArrayList<>();

    CudaProcesses(Path script) {
        this.script = script;
    }

    /** Starts a process holding {@code fractionOfTotal} of the first GPU's memory; returns once it holds it. */
    Hog start(double fractionOfTotal, boolean ignoreSigterm) throws IOException {
        List<String> command = new ArrayList<>(List.of("python3", script.toString(), Double.toString(fractionOfTotal)));
        if (ignoreSigterm) {
            command.add("ignore-term");
        }
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        Hog hog = new Hog(
                process,
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)),
                new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        started.add(hog);
        awaitReady(hog);
        return hog;
    }

    private static void awaitReady(Hog hog) {
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                return hog.output().readLine();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        String ready;
        try {
            ready = line.get(READY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("CUDA process " + hog.pid() + " did not report ready: " + e, e);
        }
        if (ready == null || !ready.startsWith("ready")) {
            throw new IllegalStateException("CUDA process " + hog.pid() + " said " + ready + " instead of ready");
        }
        System.out.println("  cuda process " + hog.pid() + ": " + ready);
    }

    @Override
    public void close() {
        started.forEach(hog -> hog.process().destroyForcibly());
        for (Hog hog : started) {
            try {
                hog.process().waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        started.clear();
    }
}
