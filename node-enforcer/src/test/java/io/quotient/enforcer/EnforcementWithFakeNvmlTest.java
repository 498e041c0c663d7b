package io.quotient.enforcer;

import static io.quotient.enforcer.testing.FakeNvmlState.GIB;
import static io.quotient.enforcer.testing.FakeNvmlState.MIB;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.enforcer.core.CycleReport;
import io.quotient.enforcer.core.EnforcementCycle;
import io.quotient.enforcer.core.KillReason;
import io.quotient.enforcer.core.PodInfo;
import io.quotient.enforcer.core.ProcessSignaller.Result;
import io.quotient.enforcer.nvml.Nvml;
import io.quotient.enforcer.nvml.NvmlGpuReader;
import io.quotient.enforcer.testing.ChildProcesses;
import io.quotient.enforcer.testing.FakeNvml;
import io.quotient.enforcer.testing.FakeNvmlState;
import io.quotient.enforcer.testing.NodeFixture;
import io.quotient.enforcer.testing.ProcFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole enforcement cycle with the real NVML binding over the fake libnvidia-ml, real child
 * processes, a proc root that puts them into pods, and real signals.
 */
class EnforcementWithFakeNvmlTest {

    private static final Duration GRACE = Duration.ofMillis(300);
    private static final Map<String, String> QUARTER_TO_HALF =
            Map.of("gpu-fraction", "0.25", "gpu-fraction-limit", "0.5");

    @TempDir
    Path dir;

    private final ChildProcesses children = new ChildProcesses();
    private FakeNvml fake;
    private NodeFixture node;
    private NvmlGpuReader reader;

    @BeforeEach
    void setUp() throws Exception {
        fake = FakeNvml.full(dir);
        node = new NodeFixture(new ProcFixture(Files.createDirectories(dir.resolve("proc"))));
        reader = new NvmlGpuReader(() -> fake.open());
    }

    @AfterEach
    void tearDown() {
        reader.close();
        children.close();
    }

    private static FakeNvmlState t4() {
        return FakeNvmlState.create().device(0, 16 * GIB, "Tesla T4");
    }

    private EnforcementCycle cycle() {
        return node.cycle(reader, GRACE, false);
    }

    @Test
    void killsTheProcessAboveItsLimitAndOnlyIt() throws Exception {
        Process greedy = children.sleeper();
        Process modest = children.sleeper();
        Process unmanaged = children.sleeper();
        Process host = children.sleeper();
        node.podWith(greedy, QUARTER_TO_HALF, Map.of());
        node.podWith(modest, QUARTER_TO_HALF, Map.of());
        node.podWith(unmanaged, Map.of(), Map.of());
        node.hostProcess(host);
        fake.write(t4().process(0, greedy.pid(), 9 * GIB)
                .process(0, modest.pid(), 3 * GIB)
                .process(0, unmanaged.pid(), 2 * GIB)
                .process(0, host.pid(), GIB));
        EnforcementCycle cycle = cycle();

        CycleReport first = cycle.run();

        assertThat(greedy.waitFor(10, TimeUnit.SECONDS))
                .as("SIGTERM ends the greedy process")
                .isTrue();
        assertThat(List.of(modest, unmanaged, host)).allMatch(Process::isAlive);
        assertThat(node.kills).singleElement().satisfies(kill -> {
            assertThat(kill.decision().target().pid()).isEqualTo((int) greedy.pid());
            assertThat(kill.decision().reason()).isEqualTo(KillReason.LIMIT_EXCEEDED);
            assertThat(kill.result()).isEqualTo(Result.SIGNALLED);
        });
        assertThat(first.sample().orElseThrow().devices().get(0).usedBytes()).isEqualTo(15 * GIB);

        CycleReport second = cycle.run();

        assertThat(second.sample().orElseThrow().devices().get(0).usedBytes())
                .as("the kill freed 9 GiB")
                .isEqualTo(6 * GIB);
        assertThat(node.kills).hasSize(1);
        assertThat(List.of(modest, unmanaged, host)).allMatch(Process::isAlive);
    }

    @Test
    void aBorrowerIsKilledWhenTheOwnerNeedsItsMemoryAndNotBefore() throws Exception {
        Process owner = children.sleeper();
        Process borrower = children.sleeper();
        node.podWith(owner, Map.of("gpu-fraction", "0.5"), Map.of());
        node.podWith(borrower, Map.of("gpu-fraction", "0.25", "gpu-fraction-limit", "0.75"), Map.of());
        EnforcementCycle cycle = cycle();

        fake.write(t4().process(0, owner.pid(), GIB).process(0, borrower.pid(), 11 * GIB));
        cycle.run();
        assertThat(node.kills).as("the owner still has 4 GiB to grow into").isEmpty();

        fake.write(t4().process(0, owner.pid(), 4 * GIB).process(0, borrower.pid(), 11 * GIB));
        cycle.run();
        assertThat(node.kills)
                .as("the GPU is nearly full, but the owner is 1 GiB short and 1 GiB is free")
                .isEmpty();

        fake.write(t4().process(0, owner.pid(), 4608 * MIB).process(0, borrower.pid(), 11 * GIB));
        cycle.run();

        assertThat(borrower.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(owner.isAlive()).isTrue();
        assertThat(node.kills).singleElement().satisfies(kill -> {
            assertThat(kill.decision().reason()).isEqualTo(KillReason.LOAN_RECLAIMED);
            assertThat(kill.decision().container().pod()).isEqualTo("pod-" + borrower.pid());
        });
    }

    @Test
    void aPidReusedBetweenSampleAndKillIsLeftAlone() throws Exception {
        Process sampled = children.sleeper();
        ProcFixture proc = new ProcFixture(dir.resolve("proc"));
        node.podWith(sampled, QUARTER_TO_HALF, Map.of());
        EnforcementCycle cycle = cycle();
        fake.write(t4().process(0, sampled.pid(), 2 * GIB));
        cycle.run(); // within budget: identity sampled and remembered

        Thread.sleep(20);
        Process newcomer = children.sleeper();
        proc.reuse(sampled.pid(), newcomer.pid()); // the PID now belongs to a process started later
        fake.write(t4().process(0, sampled.pid(), 10 * GIB));
        cycle.run();

        assertThat(node.kills).singleElement().satisfies(kill -> {
            assertThat(kill.decision().target().pid()).isEqualTo((int) sampled.pid());
            assertThat(kill.result()).isEqualTo(Result.IDENTITY_CHANGED);
        });
        assertThat(sampled.isAlive()).isTrue();
        assertThat(newcomer.isAlive()).isTrue();
    }

    @Test
    void sigkillFollowsSigtermAfterTheGracePeriod() throws Exception {
        Process stubborn = children.termIgnoring();
        node.podWith(stubborn, QUARTER_TO_HALF, Map.of());
        fake.write(t4().process(0, stubborn.pid(), 12 * GIB));
        EnforcementCycle cycle = cycle();

        cycle.run();
        assertThat(stubborn.waitFor(GRACE.toMillis() / 2, TimeUnit.MILLISECONDS))
                .as("SIGTERM is ignored")
                .isFalse();
        cycle.run();
        assertThat(stubborn.isAlive()).as("no SIGKILL within the grace period").isTrue();
        assertThat(node.kills).hasSize(1);

        Thread.sleep(GRACE.toMillis());
        cycle.run();

        assertThat(stubborn.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(node.kills).extracting(NodeFixture.Kill::forced).containsExactly(false, true);
        assertThat(node.kills.get(1).result()).isEqualTo(Result.SIGNALLED);
    }

    @Test
    void dryRunReportsOnceAndKillsNothing() throws Exception {
        Process greedy = children.sleeper();
        node.podWith(greedy, QUARTER_TO_HALF, Map.of());
        fake.write(t4().process(0, greedy.pid(), 12 * GIB));
        EnforcementCycle dryRun = node.cycle(reader, GRACE, true);

        dryRun.run();
        dryRun.run();

        assertThat(greedy.waitFor(200, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(node.kills)
                .singleElement()
                .satisfies(kill -> assertThat(kill.result()).isEqualTo(Result.DRY_RUN));
    }

    @Test
    void aLostGpuIsSurvivedAndReportedNotReadyUntilItIsBack() throws Exception {
        Process greedy = children.sleeper();
        node.podWith(greedy, QUARTER_TO_HALF, Map.of());
        EnforcementCycle cycle = cycle();
        fake.write(t4().process(0, greedy.pid(), 12 * GIB).fail("nvmlDeviceGetMemoryInfo_v2", 15));

        CycleReport lost = cycle.run();

        assertThat(lost.gpusAvailable()).isFalse();
        assertThat(node.health.state().ready()).isFalse();
        assertThat(node.health.state().reason()).contains("GPU_IS_LOST", "no fractions should be placed");
        assertThat(greedy.isAlive()).isTrue();

        fake.write(t4().process(0, greedy.pid(), 3 * GIB));
        CycleReport back = cycle.run();

        assertThat(back.gpusAvailable()).isTrue();
        assertThat(node.health.state().ready()).isTrue();
    }

    @Test
    void aDriverWithoutTheV3SymbolsIsEnforcedThroughTheOldOnes() throws Exception {
        FakeNvml legacy = FakeNvml.legacy(dir);
        Process greedy = children.sleeper();
        node.podWith(greedy, QUARTER_TO_HALF, Map.of());
        legacy.write(t4().process(0, greedy.pid(), 12 * GIB));
        try (NvmlGpuReader legacyReader = new NvmlGpuReader(legacy::open)) {
            node.cycle(legacyReader, GRACE, false).run();
        }

        assertThat(node.health.state().ready()).isTrue();
        assertThat(greedy.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aV3SymbolThatIsNotImplementedIsReplacedByTheOldOne() throws Exception {
        Process greedy = children.sleeper();
        node.podWith(greedy, QUARTER_TO_HALF, Map.of());
        fake.write(t4().process(0, greedy.pid(), 12 * GIB).fail("nvmlDeviceGetComputeRunningProcesses_v3", 13));

        cycle().run();

        assertThat(node.health.state().ready()).isTrue();
        assertThat(greedy.waitFor(10, TimeUnit.SECONDS))
                .as("enforced through the unversioned symbol")
                .isTrue();
    }

    @Test
    void withoutAnyWorkingProcessListTheNodeIsNotReadyAndNothingIsKilled() throws Exception {
        Process greedy = children.sleeper();
        node.podWith(greedy, QUARTER_TO_HALF, Map.of());
        fake.write(t4().process(0, greedy.pid(), 12 * GIB)
                .fail("nvmlDeviceGetComputeRunningProcesses_v3", 13)
                .fail("nvmlDeviceGetComputeRunningProcesses", 13));

        CycleReport report = cycle().run();

        assertThat(report.gpusAvailable()).isFalse();
        assertThat(node.health.state().ready()).isFalse();
        assertThat(node.health.state().reason()).contains("nvmlDeviceGetComputeRunningProcesses", "FUNCTION_NOT_FOUND");
        assertThat(node.kills).isEmpty();
        assertThat(greedy.isAlive()).isTrue();
    }

    @Test
    void noNvmlLibraryMeansNotReady() {
        try (NvmlGpuReader missing = new NvmlGpuReader(() -> Nvml.open(List.of("libnvidia-ml-missing.so.1")))) {
            CycleReport report = node.cycle(missing, GRACE, false).run();

            assertThat(report.gpusAvailable()).isFalse();
            assertThat(node.health.state().reason()).contains("no NVML library could be loaded");
        }
    }

    @Test
    void migInstancesAreEnforcedOnTheirOwnMemory() throws Exception {
        Process greedy = children.sleeper();
        Process fine = children.sleeper();
        String mig = "MIG-33333333-3333-3333-3333-333333333333";
        PodInfo greedyPod = node.podWith(
                greedy,
                Map.of("gpu-memory", "4096", "gpu-memory-limit", "8192"),
                Map.of("NVIDIA_VISIBLE_DEVICES", mig));
        node.podWith(fine, Map.of("gpu-memory", "4096"), Map.of("NVIDIA_VISIBLE_DEVICES", mig));
        fake.write(FakeNvmlState.create()
                .device(0, 80 * GIB, "A100")
                .migMode(0, true)
                .mig(0, 0, 20 * GIB, 1, 0, mig)
                .migProcess(0, 0, greedy.pid(), 9 * GIB)
                .migProcess(0, 0, fine.pid(), 3 * GIB));

        CycleReport report = cycle().run();

        assertThat(report.sample().orElseThrow().devices())
                .extracting(d -> d.uuid())
                .containsExactly(FakeNvmlState.uuid(0), mig);
        assertThat(greedy.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(fine.isAlive()).isTrue();
        assertThat(node.kills)
                .singleElement()
                .satisfies(
                        kill -> assertThat(kill.decision().container().podUid()).isEqualTo(greedyPod.uid()));
    }
}
