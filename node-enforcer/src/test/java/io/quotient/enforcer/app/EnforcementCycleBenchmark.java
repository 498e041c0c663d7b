package io.quotient.enforcer.app;

import static io.quotient.enforcer.testing.FakeNvmlState.GIB;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotient.enforcer.core.BudgetConventions;
import io.quotient.enforcer.core.CycleReport;
import io.quotient.enforcer.core.EnforcementCycle;
import io.quotient.enforcer.core.GpuReader;
import io.quotient.enforcer.core.GpuSample;
import io.quotient.enforcer.core.KillPolicy;
import io.quotient.enforcer.core.PolicySettings;
import io.quotient.enforcer.core.SnapshotBuilder;
import io.quotient.enforcer.nvml.NvmlGpuReader;
import io.quotient.enforcer.proc.IdentityCheckingSignaller;
import io.quotient.enforcer.proc.ProcFs;
import io.quotient.enforcer.testing.ChildProcesses;
import io.quotient.enforcer.testing.FakeNvml;
import io.quotient.enforcer.testing.FakeNvmlState;
import io.quotient.enforcer.testing.NodeFixture;
import io.quotient.enforcer.testing.ProcFixture;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cost of enforcement on a full node: 8 GPUs × 64 real processes, each in a pod of its own, read
 * through the real JNA binding over the fake libnvidia-ml, identified through a proc root, with the
 * production metrics listener. Prints figures; asserts only that the cycles did their work.
 *
 * <p>{@code mvn -B -o -Pbenchmarks -pl node-enforcer test -Dtest=EnforcementCycleBenchmark}
 */
@Tag("benchmark")
class EnforcementCycleBenchmark {

    private static final int GPUS = 8;
    private static final int PROCESSES_PER_GPU = 64;
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Map<String, String> ONE_TO_TWO_GIB = Map.of("gpu-memory", "1024", "gpu-memory-limit", "2048");

    @TempDir
    static Path dir;

    private static final ChildProcesses children = new ChildProcesses();
    private static final List<Process> workers = new ArrayList<>();
    private static FakeNvml fake;
    private static NodeFixture node;

    @BeforeAll
    static void fullNode() throws Exception {
        fake = FakeNvml.full(dir);
        node = new NodeFixture(new ProcFixture(Files.createDirectories(dir.resolve("proc"))));
        for (int i = 0; i < GPUS * PROCESSES_PER_GPU; i++) {
            Process worker = children.sleeper();
            workers.add(worker);
            node.podWith(worker, ONE_TO_TWO_GIB, Map.of());
        }
        fake.write(steady());
    }

    @AfterAll
    static void stop() {
        children.close();
    }

    /** Every GPU 80 GiB, each process 1 GiB: within every budget, nothing to kill. */
    private static FakeNvmlState steady() {
        FakeNvmlState state = FakeNvmlState.create();
        for (int gpu = 0; gpu < GPUS; gpu++) {
            state.device(gpu, 80 * GIB, "NVIDIA A100-SXM4-80GB").utilization(gpu, 50, 30);
        }
        for (int i = 0; i < workers.size(); i++) {
            state.process(i / PROCESSES_PER_GPU, workers.get(i).pid(), GIB);
        }
        return state;
    }

    private static EnforcementCycle cycle(GpuReader gpus, EnforcerMetrics metrics) {
        ProcFs procFs = new ProcFs(dir.resolve("proc"));
        return new EnforcementCycle(
                gpus,
                new SnapshotBuilder(procFs, node, new BudgetConventions()),
                new KillPolicy(PolicySettings.DEFAULTS),
                new IdentityCheckingSignaller(procFs),
                new CompositeListener(List.of(metrics, node)),
                node.health,
                new EnforcementCycle.Settings(Duration.ofSeconds(10), false),
                Clock.systemUTC(),
                System::nanoTime);
    }

    @Test
    void cpuTimeOfOneCycle() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int killsBefore = node.kills.size();
        EnforcerMetrics metrics = new EnforcerMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        try (NvmlGpuReader nvml = new NvmlGpuReader(fake::open)) {
            EnforcementCycle withNvml = cycle(nvml, metrics);
            long[] full = measure(threads, withNvml, 300);

            GpuSample sample = nvml.read();
            assertThat(sample.processes()).hasSize(GPUS * PROCESSES_PER_GPU);
            long[] nvmlOnly = measure(threads, () -> nvml.read(), 300);
            GpuReader recorded = () -> sample;
            long[] enforcerOnly = measure(threads, cycle(recorded, metrics), 300);

            System.out.printf(
                    "%nBENCHMARK one enforcement cycle, %d GPUs x %d processes (CPU time of the cycle's thread, "
                            + "300 cycles after 100 warm-up):%n",
                    GPUS, PROCESSES_PER_GPU);
            print("full cycle through the fake NVML", full);
            print("  of which NVML reads (JNA + fake)", nvmlOnly);
            print("cycle on a recorded sample (the enforcer's own work)", enforcerOnly);
        }
        assertThat(node.kills).as("a steady node: nothing over budget").hasSize(killsBefore);
        assertThat(node.health.state().ready()).isTrue();
    }

    @Test
    void detectionToKillLatency() throws Exception {
        Random random = new Random(42);
        int trials = 10;
        int killsBefore = node.kills.size();
        List<Long> latencies = new ArrayList<>();
        EnforcerMetrics metrics = new EnforcerMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();
        try (NvmlGpuReader nvml = new NvmlGpuReader(fake::open)) {
            EnforcementCycle cycle = cycle(nvml, metrics);
            loop.scheduleWithFixedDelay(cycle::run, 0, POLL.toNanos(), TimeUnit.NANOSECONDS);
            for (int trial = 0; trial < trials; trial++) {
                Process victim = children.sleeper();
                node.podWith(victim, ONE_TO_TWO_GIB, Map.of());
                fake.write(steady().process(0, victim.pid(), GIB));
                Thread.sleep(2 * POLL.toMillis() + random.nextInt((int) POLL.toMillis()));

                long overAt = System.nanoTime();
                fake.write(steady().process(0, victim.pid(), 3 * GIB));
                assertThat(victim.onExit().get(10, TimeUnit.SECONDS).isAlive()).isFalse();
                latencies.add(System.nanoTime() - overAt);
            }
        } finally {
            loop.shutdownNow();
            loop.awaitTermination(10, TimeUnit.SECONDS);
        }
        assertThat(node.kills).hasSize(killsBefore + trials);
        long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        System.out.printf(
                "%nBENCHMARK detection-to-kill latency, poll interval %d ms, %d trials on a %d x %d node:%n"
                        + "  median %.0f ms, max %.0f ms (%.2f poll intervals); all: %s ms%n",
                POLL.toMillis(),
                trials,
                GPUS,
                PROCESSES_PER_GPU,
                sorted[sorted.length / 2] / 1e6,
                sorted[sorted.length - 1] / 1e6,
                sorted[sorted.length - 1] / (double) POLL.toNanos(),
                Arrays.toString(Arrays.stream(sorted).map(n -> n / 1_000_000).toArray()));
    }

    private static long[] measure(ThreadMXBean threads, Runnable cycle, int runs) {
        for (int i = 0; i < 100; i++) {
            cycle.run();
        }
        long[] cpu = new long[runs];
        for (int i = 0; i < runs; i++) {
            long start = threads.getCurrentThreadCpuTime();
            cycle.run();
            cpu[i] = threads.getCurrentThreadCpuTime() - start;
        }
        Arrays.sort(cpu);
        return cpu;
    }

    private static long[] measure(ThreadMXBean threads, EnforcementCycle cycle, int runs) {
        return measure(
                threads,
                (Runnable) () -> {
                    CycleReport report = cycle.run();
                    assertThat(report.gpusAvailable()).isTrue();
                },
                runs);
    }

    private static void print(String what, long[] sortedNanos) {
        System.out.printf(
                "  %-55s median %.2f ms, p90 %.2f ms, max %.2f ms%n",
                what,
                sortedNanos[sortedNanos.length / 2] / 1e6,
                sortedNanos[sortedNanos.length * 9 / 10] / 1e6,
                sortedNanos[sortedNanos.length - 1] / 1e6);
    }
}
