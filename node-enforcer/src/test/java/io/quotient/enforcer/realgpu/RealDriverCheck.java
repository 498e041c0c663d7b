package io.quotient.enforcer.realgpu;

import com.sun.jna.Pointer;
import io.quotient.enforcer.core.CycleReport;
import io.quotient.enforcer.core.EnforcementCycle;
import io.quotient.enforcer.core.GpuDevice;
import io.quotient.enforcer.core.GpuSample;
import io.quotient.enforcer.core.KillReason;
import io.quotient.enforcer.nvml.Nvml;
import io.quotient.enforcer.nvml.NvmlGpuReader;
import io.quotient.enforcer.testing.NodeFixture;
import io.quotient.enforcer.testing.ProcFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * The enforcer's NVML binding and its whole cycle against a real NVIDIA driver and real CUDA
 * processes: what the binding reads (driver, devices, memory, process lists, utilization), then the
 * three kills the fake NVML stands in for in the test suite — a process above its limit (SIGTERM), a
 * borrower whose loan the owner needs back, and a process that ignores SIGTERM (SIGKILL after the grace
 * period) — each run by the production {@link EnforcementCycle} polling as the agent does.
 *
 * <p>Not a test: CI has no GPU. It runs on a GPU machine by {@code node-enforcer/src/test/gpu/real-driver-check.sh}
 * (docs/operations.md) and exits non-zero when a check fails. Pods are the test suite's fixtures (a
 * proc root that puts the real CUDA processes into pods), since such a machine has no kubelet.
 */
public final class RealDriverCheck {

    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration GRACE = Duration.ofSeconds(3);

    private final Path workDir;
    private final CudaProcesses cuda;
    private final CheckLog log = new CheckLog();

    private RealDriverCheck(Path workDir, CudaProcesses cuda) {
        this.workDir = workDir;
        this.cuda = cuda;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: RealDriverCheck PATH_TO_cuda_hog.py");
            System.exit(2);
        }
        Path workDir = Files.createTempDirectory("real-driver-check");
        int failures;
        try (CudaProcesses cuda = new CudaProcesses(Path.of(args[0]))) {
            RealDriverCheck check = new RealDriverCheck(workDir, cuda);
            failures = check.runAll();
        }
        System.out.println(failures == 0 ? "ALL CHECKS PASSED" : failures + " CHECK(S) FAILED");
        System.exit(failures == 0 ? 0 : 1);
    }

    private int runAll() throws Exception {
        long total = inventory();
        run("limit", () -> limitKill(total));
        run("loan", () -> loanReclaim(total));
        run("sigkill", () -> sigkillAfterGrace(total));
        return log.failures();
    }

    private interface Phase {
        void run() throws Exception;
    }

    private void run(String name, Phase phase) {
        System.out.println("== " + name);
        try {
            phase.run();
        } catch (Exception | AssertionError e) {
            log.check(name + " ran to its end", false, e.toString());
        } finally {
            cuda.close();
        }
    }

    /** What the raw binding reads of each GPU, printed; returns the first GPU's total memory. */
    private long inventory() {
        System.out.println("== inventory");
        try (Nvml nvml = Nvml.open(Nvml.DEFAULT_LIBRARY_NAMES)) {
            System.out.println("library " + nvml.libraryName() + ", driver " + nvml.driverVersion()
                    + ", process lists through " + nvml.processListFunction() + ", memory info v2 "
                    + nvml.hasMemoryInfoV2());
            int count = nvml.deviceCount();
            log.check("NVML lists at least one GPU", count > 0, count + " GPU(s)");
            long firstTotal = 0;
            for (int index = 0; index < count; index++) {
                Pointer device = nvml.handle(index);
                var memory = nvml.memory(device);
                firstTotal = index == 0 ? memory.total() : firstTotal;
                System.out.printf(
                        Locale.ROOT,
                        "gpu %d %s %s: total %d, reserved %d, free %d, used %d bytes; mig %s; utilization %s%n",
                        nvml.index(device),
                        nvml.uuid(device),
                        nvml.name(device),
                        memory.total(),
                        memory.reserved(),
                        memory.free(),
                        memory.used(),
                        nvml.migEnabled(device),
                        nvml.utilization(device)
                                .map(u -> u.gpu + "% gpu, " + u.memory + "% memory")
                                .orElse("n/a"));
                log.check(
                        "gpu " + index + " free + used + reserved = total",
                        memory.free() + memory.used() + memory.reserved() == memory.total(),
                        memory.toString());
            }
            return firstTotal;
        }
    }

    /** A process above its limit is sent SIGTERM and dies; a process of the same budget under it is left. */
    private void limitKill(long total) throws Exception {
        Map<String, String> budget = budget(0.02, 0.04);
        NodeFixture node = node("limit");
        CudaProcesses.Hog greedy = cuda.start(0.08, false);
        CudaProcesses.Hog modest = cuda.start(0.005, false);
        node.podWith(greedy.process(), budget, Map.of());
        node.podWith(modest.process(), budget, Map.of());
        try (NvmlGpuReader reader = realReader()) {
            EnforcementCycle cycle = node.cycle(reader, GRACE, false);
            GpuSample before = waitUntilListed(reader, greedy, modest);
            printSample(before);
            long killedAfter = pollUntilDead(cycle, greedy, Duration.ofSeconds(20));
            log.check(
                    "the greedy process died after the kill",
                    !greedy.process().isAlive(),
                    "after " + killedAfter + " ms");
            log.check("the modest process is alive", modest.process().isAlive(), "");
            log.check(
                    "one kill, LIMIT_EXCEEDED, of the greedy process",
                    node.kills.size() == 1
                            && node.kills.get(0).decision().reason() == KillReason.LIMIT_EXCEEDED
                            && node.kills.get(0).decision().target().pid() == greedy.pid(),
                    node.kills.toString());
            printUsage(node.reports.get(node.reports.size() - 1));
            GpuSample after = waitUntilGone(reader, greedy);
            printSample(after);
            log.check(
                    "the GPU's used memory fell by about the greedy process's share",
                    used(before) - used(after) >= (long) (0.07 * total),
                    "before " + used(before) + ", after " + used(after));
        }
    }

    /** A borrower above its request is killed when an owner's unmet request exceeds the free memory, not before. */
    private void loanReclaim(long total) throws Exception {
        NodeFixture node = node("loan");
        CudaProcesses.Hog borrower = cuda.start(0.7, false);
        node.podWith(borrower.process(), budget(0.1, 0.9), Map.of());
        try (NvmlGpuReader reader = realReader()) {
            EnforcementCycle cycle = node.cycle(reader, GRACE, false);
            printSample(waitUntilListed(reader, borrower));
            for (int i = 0; i < 4; i++) {
                cycle.run();
                Thread.sleep(POLL.toMillis());
            }
            log.check("no kill while no owner needs the loan", node.kills.isEmpty(), node.kills.toString());
            CudaProcesses.Hog owner = cuda.start(0.005, false);
            node.podWith(owner.process(), budget(0.5, 0.5), Map.of());
            printSample(waitUntilListed(reader, owner));
            for (int i = 0; i < 4; i++) {
                cycle.run();
                Thread.sleep(POLL.toMillis());
            }
            log.check(
                    "no kill while the owner runs but free memory covers the headroom",
                    node.kills.isEmpty(),
                    node.kills.toString());
            owner.grow(0.27);
            printSample(reader.read());
            long killedAfter = pollUntilDead(cycle, borrower, Duration.ofSeconds(20));
            log.check(
                    "the borrower died once the owner grew into its loan",
                    !borrower.process().isAlive(),
                    "after " + killedAfter + " ms");
            log.check("the owner is alive", owner.process().isAlive(), "");
            log.check(
                    "one kill, LOAN_RECLAIMED, of the borrower",
                    node.kills.size() == 1
                            && node.kills.get(0).decision().reason() == KillReason.LOAN_RECLAIMED
                            && node.kills.get(0).decision().target().pid() == borrower.pid(),
                    node.kills.toString());
            node.kills.forEach(
                    kill -> System.out.println("why: " + kill.decision().explanation()));
        }
    }

    /** A process that ignores SIGTERM is sent SIGKILL once the grace period has passed. */
    private void sigkillAfterGrace(long total) throws Exception {
        NodeFixture node = node("sigkill");
        CudaProcesses.Hog stubborn = cuda.start(0.08, true);
        node.podWith(stubborn.process(), budget(0.02, 0.04), Map.of());
        try (NvmlGpuReader reader = realReader()) {
            EnforcementCycle cycle = node.cycle(reader, GRACE, false);
            waitUntilListed(reader, stubborn);
            long killedAfter = pollUntilDead(cycle, stubborn, Duration.ofSeconds(30));
            log.check(
                    "the SIGTERM-ignoring process died",
                    !stubborn.process().isAlive(),
                    "after " + killedAfter + " ms, grace " + GRACE.toMillis() + " ms");
            log.check(
                    "it took SIGTERM, then a forced SIGKILL after the grace period",
                    node.kills.size() == 2
                            && !node.kills.get(0).forced()
                            && node.kills.get(1).forced()
                            && killedAfter >= GRACE.toMillis(),
                    node.kills.toString());
        }
    }

    private NodeFixture node(String name) throws Exception {
        return new NodeFixture(new ProcFixture(Files.createDirectories(workDir.resolve(name))));
    }

    private static Map<String, String> budget(double request, double limit) {
        return Map.of("gpu-fraction", Double.toString(request), "gpu-fraction-limit", Double.toString(limit));
    }

    private static NvmlGpuReader realReader() {
        return new NvmlGpuReader(() -> Nvml.open(Nvml.DEFAULT_LIBRARY_NAMES));
    }

    /** Polls the enforcement cycle as the agent does until the process is dead; the milliseconds it took. */
    private static long pollUntilDead(EnforcementCycle cycle, CudaProcesses.Hog hog, Duration timeout)
            throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        while (hog.process().isAlive() && System.nanoTime() < deadline) {
            cycle.run();
            hog.process().waitFor(POLL.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    private static GpuSample waitUntilListed(NvmlGpuReader reader, CudaProcesses.Hog... hogs)
            throws InterruptedException {
        for (int attempt = 0; attempt < 120; attempt++) {
            GpuSample sample = reader.read();
            boolean all = true;
            for (CudaProcesses.Hog hog : hogs) {
                all &= sample.processes().stream().anyMatch(p -> p.pid() == hog.pid());
            }
            if (all) {
                return sample;
            }
            Thread.sleep(250);
        }
        GpuSample last = reader.read();
        throw new AssertionError("NVML never listed the CUDA processes; it lists " + last.processes());
    }

    private static GpuSample waitUntilGone(NvmlGpuReader reader, CudaProcesses.Hog hog) throws InterruptedException {
        for (int attempt = 0; attempt < 40; attempt++) {
            GpuSample sample = reader.read();
            if (sample.processes().stream().noneMatch(p -> p.pid() == hog.pid())) {
                return sample;
            }
            Thread.sleep(250);
        }
        return reader.read();
    }

    private static long used(GpuSample sample) {
        return sample.devices().stream().mapToLong(GpuDevice::usedBytes).sum();
    }

    private static void printSample(GpuSample sample) {
        sample.devices().forEach(d -> System.out.println("  device " + d));
        sample.processes().forEach(p -> System.out.println("  process " + p));
        sample.processUtilization().forEach(u -> System.out.println("  utilization " + u));
    }

    private static void printUsage(CycleReport report) {
        report.plan().usage().forEach(u -> System.out.println("  container usage " + u));
        report.usage().forEach(u -> System.out.println("  pod reading " + u));
    }
}
