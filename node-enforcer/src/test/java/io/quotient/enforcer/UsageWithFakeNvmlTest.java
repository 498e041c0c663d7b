package io.quotient.enforcer;

import static io.quotient.enforcer.testing.FakeNvmlState.GIB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quotient.enforcer.core.CycleReport;
import io.quotient.enforcer.core.EnforcementCycle;
import io.quotient.enforcer.core.NodeUsage;
import io.quotient.enforcer.core.PodGpuReading;
import io.quotient.enforcer.core.PodInfo;
import io.quotient.enforcer.core.UsageMeter;
import io.quotient.enforcer.core.UtilizationSource;
import io.quotient.enforcer.nvml.NvmlException;
import io.quotient.enforcer.nvml.NvmlGpuReader;
import io.quotient.enforcer.testing.ChildProcesses;
import io.quotient.enforcer.testing.FakeNvml;
import io.quotient.enforcer.testing.FakeNvmlState;
import io.quotient.enforcer.testing.NodeFixture;
import io.quotient.enforcer.testing.ProcFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What each pod used of each GPU, through the real NVML binding over the fake libnvidia-ml, real
 * child processes put into pods, and the production cycle: a test makes a GPU busy or idle by
 * rewriting the fake's utilization figures.
 */
class UsageWithFakeNvmlTest {

    private static final String MIG = "MIG-11111111-1111-1111-1111-111111111111";

    @TempDir
    Path dir;

    private final ChildProcesses children = new ChildProcesses();
    private FakeNvml fake;
    private NodeFixture node;
    private NvmlGpuReader reader;
    private EnforcementCycle cycle;

    @BeforeEach
    void setUp() throws Exception {
        fake = FakeNvml.full(dir);
        node = new NodeFixture(new ProcFixture(Files.createDirectories(dir.resolve("proc"))));
        reader = new NvmlGpuReader(() -> fake.open());
        cycle = node.cycle(reader, Duration.ofSeconds(1), true);
    }

    @AfterEach
    void tearDown() {
        reader.close();
        children.close();
    }

    private static PodGpuReading of(List<PodGpuReading> readings, PodInfo pod) {
        return readings.stream()
                .filter(r -> r.pod().uid().equals(pod.uid()))
                .findFirst()
                .orElseThrow();
    }

    private static Map<String, String> boundTo(String uuid) {
        return Map.of("NVIDIA_VISIBLE_DEVICES", uuid);
    }

    @Test
    void perProcessFiguresTellABusyPodFromAnIdleOneOnTheSameGpu() throws Exception {
        Process trainer = children.sleeper();
        Process notebook = children.sleeper();
        Process untouched = children.sleeper();
        Process host = children.sleeper();
        PodInfo busy = node.podWith(trainer, Map.of(), Map.of());
        PodInfo idle = node.podWith(notebook, Map.of(), Map.of());
        PodInfo holder = node.podWith(untouched, Map.of(), boundTo(FakeNvmlState.uuid(0)));
        node.hostProcess(host);
        FakeNvmlState gpu = FakeNvmlState.create()
                .device(0, 80 * GIB, "H100")
                .utilization(0, 95, 30)
                .process(0, trainer.pid(), 4 * GIB)
                .process(0, notebook.pid(), GIB)
                .process(0, host.pid(), GIB);
        fake.write(gpu.copy().processUtilization(0, trainer.pid(), 65, 20).processUtilization(0, host.pid(), 30, 5));

        List<PodGpuReading> readings = cycle.run().usage();

        assertThat(readings).hasSize(3).as("the host process is nobody's").allSatisfy(r -> {
            assertThat(r.source()).isEqualTo(UtilizationSource.PROCESS);
            assertThat(r.gpuUuid()).isEqualTo(FakeNvmlState.uuid(0));
        });
        assertThat(of(readings, busy).utilizationPercent()).isEqualTo(65);
        assertThat(of(readings, busy).memoryUsedBytes()).isEqualTo(4 * GIB);
        assertThat(of(readings, idle).utilizationPercent()).isZero();
        assertThat(of(readings, idle).memoryUsedBytes()).isEqualTo(GIB);
        assertThat(of(readings, holder).utilizationPercent())
                .as("bound, never touched it")
                .isZero();
        assertThat(of(readings, holder).memoryUsedBytes()).isZero();

        fake.write(gpu.copy().processUtilization(0, notebook.pid(), 40, 10));
        List<PodGpuReading> later = cycle.run().usage();

        assertThat(of(later, busy).utilizationPercent())
                .as("the trainer went idle")
                .isZero();
        assertThat(of(later, idle).utilizationPercent()).isEqualTo(40);
    }

    @Test
    void withoutPerProcessFiguresTheGpusFigureGoesToItsOnlyPodOrIsSplitByMemory() throws Exception {
        Process alone = children.sleeper();
        Process big = children.sleeper();
        Process small = children.sleeper();
        PodInfo single = node.podWith(alone, Map.of(), Map.of());
        PodInfo large = node.podWith(big, Map.of(), Map.of());
        PodInfo little = node.podWith(small, Map.of(), Map.of());
        fake.write(FakeNvmlState.create()
                .device(0, 16 * GIB, "T4")
                .utilization(0, 40, 10)
                .process(0, alone.pid(), 2 * GIB)
                .device(1, 16 * GIB, "T4")
                .utilization(1, 80, 10)
                .process(1, big.pid(), 3 * GIB)
                .process(1, small.pid(), GIB)
                .processUtilization(0, alone.pid(), 99, 0)
                .fail("nvmlDeviceGetProcessUtilization", NvmlException.NOT_SUPPORTED));

        List<PodGpuReading> readings = cycle.run().usage();

        assertThat(of(readings, single).source()).isEqualTo(UtilizationSource.DEVICE);
        assertThat(of(readings, single).utilizationPercent()).isEqualTo(40);
        assertThat(of(readings, large).source()).isEqualTo(UtilizationSource.MEMORY_SHARE);
        assertThat(of(readings, large).utilizationPercent()).isCloseTo(60, within(1e-9));
        assertThat(of(readings, little).utilizationPercent()).isCloseTo(20, within(1e-9));
    }

    @Test
    void aPerProcessErrorThatIsNotALostGpuFallsBackToTheDeviceFigure() throws Exception {
        Process worker = children.sleeper();
        PodInfo pod = node.podWith(worker, Map.of(), Map.of());
        fake.write(FakeNvmlState.create()
                .device(0, 16 * GIB, "T4")
                .utilization(0, 55, 10)
                .process(0, worker.pid(), GIB)
                .processUtilization(0, worker.pid(), 99, 0)
                .fail("nvmlDeviceGetProcessUtilization", 4)); // NO_PERMISSION

        CycleReport report = cycle.run();

        assertThat(report.gpusAvailable()).as("enforcement goes on").isTrue();
        assertThat(of(report.usage(), pod).source()).isEqualTo(UtilizationSource.DEVICE);
        assertThat(of(report.usage(), pod).utilizationPercent()).isEqualTo(55);

        fake.write(FakeNvmlState.create()
                .device(0, 16 * GIB, "T4")
                .process(0, worker.pid(), GIB)
                .fail("nvmlDeviceGetProcessUtilization", NvmlException.GPU_IS_LOST));

        assertThat(cycle.run().gpusAvailable())
                .as("a lost GPU is still a lost GPU")
                .isFalse();
    }

    @Test
    void aMigInstanceReportsMemoryButNoUtilization() throws Exception {
        Process worker = children.sleeper();
        PodInfo pod = node.podWith(worker, Map.of(), Map.of());
        fake.write(FakeNvmlState.create()
                .device(0, 80 * GIB, "A100")
                .utilization(0, 50, 10)
                .migMode(0, true)
                .mig(0, 0, 40 * GIB, 1, 0, MIG)
                .migProcess(0, 0, worker.pid(), 6 * GIB)
                .processUtilization(0, worker.pid(), 50, 10));

        List<PodGpuReading> readings = cycle.run().usage();

        assertThat(readings).singleElement().satisfies(r -> {
            assertThat(r.pod().uid()).isEqualTo(pod.uid());
            assertThat(r.gpuUuid()).isEqualTo(MIG);
            assertThat(r.source()).isEqualTo(UtilizationSource.UNAVAILABLE);
            assertThat(r.measured()).isFalse();
            assertThat(r.memoryUsedBytes()).isEqualTo(6 * GIB);
        });
    }

    @Test
    void aScriptedBusyThenIdleNotebookAddsUpToItsGpuSeconds() throws Exception {
        Process notebook = children.sleeper();
        PodInfo pod = node.podWith(notebook, Map.of(), Map.of());
        FakeNvmlState gpu = FakeNvmlState.create().device(0, 80 * GIB, "H100").process(0, notebook.pid(), 2 * GIB);
        UsageMeter meter = new UsageMeter(new UsageMeter.Settings(Duration.ofSeconds(2), Duration.ofMinutes(1)));
        Instant t0 = Instant.parse("2026-12-01T10:00:00Z");
        fake.write(gpu.copy().processUtilization(0, notebook.pid(), 90, 0));
        for (int second = 0; second <= 4; second++) { // busy at 90 % for 4 s (the first cycle counts from then)
            meter.record(cycle.run().usage(), t0.plusSeconds(second));
        }
        fake.write(gpu.copy());
        for (int second = 5; second <= 10; second++) { // idle for 6 s
            meter.record(cycle.run().usage(), t0.plusSeconds(second));
        }

        NodeUsage usage = meter.report(t0.plusSeconds(10));

        assertThat(usage.pods()).singleElement().satisfies(p -> {
            assertThat(p.pod().uid()).isEqualTo(pod.uid());
            NodeUsage.GpuUsage onGpu = p.gpus().get(0);
            assertThat(onGpu.totals().busyGpuSeconds()).isCloseTo(3.6, within(1e-9));
            assertThat(onGpu.totals().presentSeconds()).isCloseTo(10, within(1e-9));
            assertThat(onGpu.window().utilizationPercent()).isCloseTo(36, within(1e-9));
            assertThat(onGpu.window().memoryPeakBytes()).isEqualTo(2 * GIB);
        });
    }
}
