package io.quotient.enforcer.nvml;

import static io.quotient.enforcer.testing.FakeNvmlState.GIB;
import static io.quotient.enforcer.testing.FakeNvmlState.MIB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.jna.Pointer;
import io.quotient.enforcer.testing.ChildProcesses;
import io.quotient.enforcer.testing.FakeNvml;
import io.quotient.enforcer.testing.FakeNvmlState;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real JNA binding against the fake libnvidia-ml (built by gcc in the test build). */
class NvmlBindingTest {

    private static final long SELF = ProcessHandle.current().pid();

    @TempDir
    Path dir;

    private final ChildProcesses children = new ChildProcesses();
    private FakeNvml fake;
    private Nvml nvml;

    @BeforeEach
    void twoGpus() {
        fake = FakeNvml.full(dir)
                .write(FakeNvmlState.create()
                        .device(0, 80 * GIB, "NVIDIA H100 80GB HBM3")
                        .base(0, 512 * MIB)
                        .utilization(0, 37, 12)
                        .device(1, 16 * GIB, "Tesla T4"));
        nvml = fake.open();
    }

    @AfterEach
    void close() {
        nvml.close();
        children.close();
    }

    @Test
    void readsDevicesThroughTheVersionedSymbols() {
        assertThat(nvml.hasMemoryInfoV2()).isTrue();
        assertThat(nvml.processListFunction()).isEqualTo("nvmlDeviceGetComputeRunningProcesses_v3");
        assertThat(nvml.driverVersion()).isEqualTo("550.54.15");
        assertThat(nvml.deviceCount()).isEqualTo(2);
        Pointer h100 = nvml.handle(0);
        assertThat(nvml.uuid(h100)).isEqualTo(FakeNvmlState.uuid(0));
        assertThat(nvml.name(h100)).isEqualTo("NVIDIA H100 80GB HBM3");
        assertThat(nvml.index(h100)).isZero();
        assertThat(nvml.memory(h100)).isEqualTo(new NvmlMemoryInfo(80 * GIB, 0, 80 * GIB - 512 * MIB, 512 * MIB));
        assertThat(nvml.utilization(h100).orElseThrow().gpu).isEqualTo(37);
        assertThat(nvml.migEnabled(h100)).isFalse();
        assertThat(nvml.index(nvml.handleByUuid(FakeNvmlState.uuid(1)))).isEqualTo(1);
    }

    @Test
    void growsTheProcessListUntilItFits() {
        FakeNvmlState state = FakeNvmlState.create().device(0, 80 * GIB, "H100");
        for (int i = 1; i <= 100; i++) {
            state.process(0, SELF, i * MIB);
        }
        fake.write(state.understate(0)); // the driver under-reports the size, as a growing list does

        List<NvmlProcess> processes = nvml.computeProcesses(nvml.handle(0));

        assertThat(processes).hasSize(100);
        assertThat(processes)
                .extracting(NvmlProcess::usedBytes)
                .containsExactlyElementsOf(
                        LongStream.rangeClosed(1, 100).mapToObj(i -> i * MIB).toList());
        assertThat(processes).allSatisfy(p -> {
            assertThat(p.pid()).isEqualTo((int) SELF);
            assertThat(p.gpuInstanceId()).isEqualTo(-1);
        });
    }

    @Test
    void aKilledProcessDisappearsAndFreesItsMemory() throws Exception {
        Process child = children.sleeper();
        fake.write(FakeNvmlState.create()
                .device(0, 16 * GIB, "T4")
                .process(0, child.pid(), 3 * GIB)
                .process(0, SELF, GIB)
                .process(0, SELF, -1));
        Pointer gpu = nvml.handle(0);
        assertThat(nvml.computeProcesses(gpu))
                .extracting(NvmlProcess::pid)
                .containsExactly((int) child.pid(), (int) SELF, (int) SELF);
        assertThat(nvml.computeProcesses(gpu).get(2).usedBytes())
                .as("NVML_VALUE_NOT_AVAILABLE")
                .isEqualTo(-1);
        assertThat(nvml.memory(gpu).used()).isEqualTo(4 * GIB);

        child.destroyForcibly().waitFor();

        assertThat(nvml.computeProcesses(gpu)).extracting(NvmlProcess::pid).containsOnly((int) SELF);
        assertThat(nvml.memory(gpu).used()).isEqualTo(GIB);
    }

    @Test
    void errorsCarryTheNvmlCodeAndMessage() {
        fake.write(FakeNvmlState.create().device(0, 16 * GIB, "T4").fail("nvmlDeviceGetMemoryInfo_v2", 15));
        Pointer gpu = nvml.handle(0);

        assertThatThrownBy(() -> nvml.memory(gpu))
                .isInstanceOfSatisfying(NvmlException.class, e -> {
                    assertThat(e.code()).isEqualTo(NvmlException.GPU_IS_LOST);
                    assertThat(e.function()).isEqualTo("nvmlDeviceGetMemoryInfo_v2");
                    assertThat(e.isDeviceOrDriverLost()).isTrue();
                })
                .hasMessageContaining("NVML_ERROR_GPU_IS_LOST (15)")
                .hasMessageContaining("GPU is lost");
        assertThatThrownBy(() -> nvml.handle(7))
                .isInstanceOfSatisfying(
                        NvmlException.class, e -> assertThat(e.code()).isEqualTo(NvmlException.INVALID_ARGUMENT));
    }

    @Test
    void callsAfterShutdownAreUninitialised() {
        Pointer gpu = nvml.handle(0);
        nvml.close();

        assertThatThrownBy(() -> nvml.memory(gpu))
                .isInstanceOfSatisfying(
                        NvmlException.class, e -> assertThat(e.code()).isEqualTo(NvmlException.UNINITIALIZED));
    }

    @Test
    void readsMigInstancesWithTheirOwnMemoryAndProcesses() {
        String migA = "MIG-11111111-1111-1111-1111-111111111111";
        String migB = "MIG-22222222-2222-2222-2222-222222222222";
        fake.write(FakeNvmlState.create()
                .device(0, 80 * GIB, "A100")
                .migMode(0, true)
                .mig(0, 0, 40 * GIB, 1, 0, migA)
                .mig(0, 2, 20 * GIB, 5, 0, migB)
                .migProcess(0, 2, SELF, 3 * GIB));
        Pointer gpu = nvml.handle(0);

        assertThat(nvml.migEnabled(gpu)).isTrue();
        List<Pointer> migs = nvml.migDevices(gpu);
        assertThat(migs).hasSize(2);
        Pointer b = migs.get(1);
        assertThat(nvml.isMigDevice(b)).isTrue();
        assertThat(nvml.isMigDevice(gpu)).isFalse();
        assertThat(nvml.uuid(b)).isEqualTo(migB);
        assertThat(nvml.gpuInstanceId(b)).isEqualTo(5);
        assertThat(nvml.computeInstanceId(b)).isZero();
        assertThat(nvml.uuid(nvml.parentOf(b))).isEqualTo(FakeNvmlState.uuid(0));
        assertThat(nvml.memory(b)).isEqualTo(new NvmlMemoryInfo(20 * GIB, 0, 17 * GIB, 3 * GIB));
        assertThat(nvml.computeProcesses(b)).containsExactly(new NvmlProcess((int) SELF, 3 * GIB, 5, 0));
        assertThat(nvml.computeProcesses(migs.get(0))).isEmpty();
        assertThat(nvml.utilization(b)).as("not supported on MIG").isEmpty();
    }

    @Test
    void fallsBackToTheOldSymbolsOnAPre116Driver() {
        FakeNvml legacy = FakeNvml.legacy(dir)
                .write(FakeNvmlState.create()
                        .device(0, 16 * GIB, "Tesla V100")
                        .process(0, SELF, 5 * GIB)
                        .process(0, SELF, 2 * GIB));
        try (Nvml old = legacy.open()) {
            assertThat(old.hasMemoryInfoV2()).isFalse();
            assertThat(old.processListFunction()).isEqualTo("nvmlDeviceGetComputeRunningProcesses");
            Pointer gpu = old.handle(0);
            assertThat(old.memory(gpu)).isEqualTo(new NvmlMemoryInfo(16 * GIB, 0, 9 * GIB, 7 * GIB));
            assertThat(old.computeProcesses(gpu))
                    .containsExactly(
                            new NvmlProcess((int) SELF, 5 * GIB, -1, -1), new NvmlProcess((int) SELF, 2 * GIB, -1, -1));
        }
    }

    @Test
    void findsTheDriversVersionedFileOnTheJnaPath() {
        // the fake's directory holds only libnvidia-ml.so.1, as driver installs often do
        try (Nvml byDefault = Nvml.open(Nvml.DEFAULT_LIBRARY_NAMES);
                Nvml byFileName = Nvml.open(List.of("no-such-nvml", "libnvidia-ml.so.1"))) {
            assertThat(byDefault.libraryName()).isEqualTo("nvidia-ml");
            assertThat(byDefault.deviceCount()).isEqualTo(2);
            assertThat(byFileName.libraryName()).isEqualTo("libnvidia-ml.so.1");
            assertThat(byFileName.deviceCount()).isEqualTo(2);
        }
    }

    @Test
    void aMissingLibraryIsATypedErrorThatSaysWhatWasTried() {
        assertThatThrownBy(() -> Nvml.open(List.of("no-such-nvml", "libno-such-nvml.so.1")))
                .isInstanceOfSatisfying(
                        NvmlException.class, e -> assertThat(e.code()).isEqualTo(NvmlException.LIBRARY_NOT_FOUND))
                .hasMessageContaining("no-such-nvml")
                .hasMessageContaining("libno-such-nvml.so.1");
    }

    @Test
    void readsPerProcessUtilizationThroughTheTwoCallProtocol() throws Exception {
        Process busy = children.sleeper();
        Process idle = children.sleeper();
        fake.write(FakeNvmlState.create()
                .device(0, 80 * GIB, "H100")
                .utilization(0, 70, 20)
                .process(0, busy.pid(), 4 * GIB)
                .process(0, idle.pid(), GIB)
                .processUtilization(0, busy.pid(), 70, 15));
        Pointer gpu = nvml.handle(0);
        long before = System.currentTimeMillis() * 1000;

        List<NvmlProcessUtilization> samples = nvml.processUtilization(gpu, 0).orElseThrow();

        assertThat(samples).singleElement().satisfies(sample -> {
            assertThat(sample.pid()).isEqualTo((int) busy.pid());
            assertThat(sample.smPercent()).isEqualTo(70);
            assertThat(sample.memoryPercent()).isEqualTo(15);
            assertThat(sample.timestampMicros())
                    .isBetween(before - 1_000_000, System.currentTimeMillis() * 1000 + 1_000_000);
        });
        long future = (System.currentTimeMillis() + 3_600_000) * 1000;
        assertThat(nvml.processUtilization(gpu, future))
                .as("NOT_FOUND: no sample after lastSeen")
                .contains(List.of());

        busy.destroyForcibly().waitFor();

        assertThat(nvml.processUtilization(gpu, 0))
                .as("a process that exited has no sample")
                .contains(List.of());
    }

    @Test
    void perProcessUtilizationIsAbsentWhereTheDriverDoesNotReportIt() {
        fake.write(FakeNvmlState.create()
                .device(0, 16 * GIB, "T4")
                .utilization(0, 40, 5)
                .processUtilization(0, SELF, 40, 5)
                .fail("nvmlDeviceGetProcessUtilization", NvmlException.NOT_SUPPORTED));
        Pointer gpu = nvml.handle(0);
        assertThat(nvml.processUtilization(gpu, 0)).as("NOT_SUPPORTED").isEmpty();
        assertThat(nvml.utilization(gpu).orElseThrow().gpu)
                .as("the device figure is still there")
                .isEqualTo(40);

        fake.write(FakeNvmlState.create()
                .device(0, 80 * GIB, "A100")
                .utilization(0, 40, 5)
                .migMode(0, true)
                .mig(0, 0, 40 * GIB, 1, 0, "MIG-11111111-1111-1111-1111-111111111111")
                .processUtilization(0, SELF, 40, 5));
        Pointer a100 = nvml.handle(0);
        assertThat(nvml.processUtilization(a100, 0)).as("MIG on").isEmpty();
        assertThat(nvml.utilization(a100))
                .as("no device figure with MIG on either")
                .isEmpty();
        assertThat(nvml.processUtilization(nvml.migDevices(a100).get(0), 0))
                .as("MIG instance")
                .isEmpty();
    }

    @Test
    void aLostGpuWhileReadingUtilizationIsAnError() {
        fake.write(FakeNvmlState.create()
                .device(0, 16 * GIB, "T4")
                .processUtilization(0, SELF, 40, 5)
                .fail("nvmlDeviceGetProcessUtilization", NvmlException.GPU_IS_LOST));
        Pointer gpu = nvml.handle(0);

        assertThatThrownBy(() -> nvml.processUtilization(gpu, 0)).isInstanceOfSatisfying(NvmlException.class, e -> {
            assertThat(e.code()).isEqualTo(NvmlException.GPU_IS_LOST);
            assertThat(e.function()).isEqualTo("nvmlDeviceGetProcessUtilization");
        });
    }

    @Test
    void structLayoutsMatchTheHeader() {
        NvmlStructs.ProcessUtilizationSample sample = new NvmlStructs.ProcessUtilizationSample();
        assertThat(sample.size()).isEqualTo(NvmlStructs.ProcessUtilizationSample.SIZE);
        assertThat(sample.offsetOf("timeStamp")).isEqualTo(NvmlStructs.ProcessUtilizationSample.TIME_STAMP);
        assertThat(sample.offsetOf("smUtil")).isEqualTo(NvmlStructs.ProcessUtilizationSample.SM);
        assertThat(sample.offsetOf("memUtil")).isEqualTo(NvmlStructs.ProcessUtilizationSample.MEMORY);
        NvmlStructs.ProcessInfo info = new NvmlStructs.ProcessInfo();
        assertThat(info.size()).isEqualTo(NvmlStructs.ProcessInfo.SIZE);
        assertThat(info.offsetOf("usedGpuMemory")).isEqualTo(NvmlStructs.ProcessInfo.USED);
        assertThat(info.offsetOf("gpuInstanceId")).isEqualTo(NvmlStructs.ProcessInfo.GPU_INSTANCE);
        assertThat(info.offsetOf("computeInstanceId")).isEqualTo(NvmlStructs.ProcessInfo.COMPUTE_INSTANCE);
        NvmlStructs.ProcessInfoV1 v1 = new NvmlStructs.ProcessInfoV1();
        assertThat(v1.size()).isEqualTo(NvmlStructs.ProcessInfoV1.SIZE);
        assertThat(v1.offsetOf("usedGpuMemory")).isEqualTo(8);
        assertThat(new NvmlStructs.Memory().size()).isEqualTo(24);
        assertThat(new NvmlStructs.MemoryV2().size()).isEqualTo(40);
        assertThat(NvmlStructs.MemoryV2.VERSION_2).isEqualTo(0x02000028);
        assertThat(new NvmlStructs.Utilization().size()).isEqualTo(8);
    }
}
