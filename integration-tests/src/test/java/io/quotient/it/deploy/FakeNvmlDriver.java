package io.quotient.it.deploy;

import io.quotient.it.harness.FakeGpuNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the fake {@code libnvidia-ml} (node-enforcer's {@code src/test/native/fake_nvml.c}, built by that module's
 * test build) answers for one fake GPU node: the node's GPUs (its UUIDs, model and memory, so the enforcer's report
 * names the GPUs the service placed on), the processes on each and their per-process utilisation. The state file's
 * directives are documented in {@code fake_nvml.c}; the fake re-reads the file whenever it was replaced, so a test
 * makes a GPU busy or idle between two enforcement cycles.
 */
final class FakeNvmlDriver {

    private static final long MIB = 1L << 20;
    private static final long PROCESS_MEMORY_BYTES = 1024 * MIB;

    /** A process on a GPU: the GPU's index, and the per cent of its kernels NVML reports for it (0: no sample). */
    private record GpuProcess(int gpu, int utilisationPercent) {}

    private final FakeGpuNode node;
    private final Path stateFile;
    private final Map<Long, GpuProcess> processes = new LinkedHashMap<>();

    FakeNvmlDriver(FakeGpuNode node, Path stateFile) {
        this.node = node;
        this.stateFile = stateFile;
        write();
    }

    /** The library the test build compiled (failsafe's {@code quotient.it.fakeNvml}). */
    static Path library() {
        Path library = Path.of(
                        System.getProperty("quotient.it.fakeNvml", "../node-enforcer/target/native/libnvidia-ml.so.1"))
                .toAbsolutePath();
        if (!Files.isRegularFile(library)) {
            throw new IllegalStateException("the fake libnvidia-ml is missing at " + library + ": it is compiled by "
                    + "node-enforcer's test build; run mvn -B verify, or mvn -B -DskipTests package -pl node-enforcer");
        }
        return library;
    }

    Path stateFile() {
        return stateFile;
    }

    /** From the next read on, process {@code pid} runs on GPU {@code gpu} at this utilisation (0 to 100). */
    synchronized void run(long pid, int gpu, int utilisationPercent) {
        if (gpu < 0 || gpu >= node.gpuUuids().size()) {
            throw new IllegalArgumentException(
                    "node " + node.name() + " has GPUs 0.." + (node.gpuUuids().size() - 1) + ", not " + gpu);
        }
        if (utilisationPercent < 0 || utilisationPercent > 100) {
            throw new IllegalArgumentException("utilisation is 0 to 100 per cent, got " + utilisationPercent);
        }
        processes.put(pid, new GpuProcess(gpu, utilisationPercent));
        write();
    }

    private void write() {
        List<String> lines = new ArrayList<>();
        lines.add("driver 550.54.15");
        long total = node.spec().gpuMemoryMib() * MIB;
        for (int i = 0; i < node.gpuUuids().size(); i++) {
            lines.add("device " + i + " " + total + " " + node.gpuUuids().get(i) + " "
                    + node.spec().model());
            int busiest = 0;
            for (GpuProcess p : processes.values()) {
                busiest = p.gpu() == i ? Math.max(busiest, p.utilisationPercent()) : busiest;
            }
            lines.add("util " + i + " " + busiest + " 0");
        }
        processes.forEach((pid, p) -> {
            lines.add("proc " + p.gpu() + " " + pid + " " + PROCESS_MEMORY_BYTES);
            if (p.utilisationPercent() > 0) { // the driver has samples only for processes that ran kernels
                lines.add("putil " + p.gpu() + " " + pid + " " + p.utilisationPercent() + " 0");
            }
        });
        try {
            Files.createDirectories(stateFile.getParent());
            Path temp = Files.createTempFile(stateFile.getParent(), "nvml-state", ".tmp");
            Files.writeString(temp, String.join("\n", lines) + "\n");
            // a rename gives the file a new inode: the fake's signal to read it again
            Files.move(temp, stateFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("writing the fake NVML state " + stateFile, e);
        }
    }
}
