package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * How shares of GPUs are placed, after HAMi's scoring cases ({@code pkg/scheduler/score_test.go}, {@code
 * Test_calcScore}), Volcano's vgpu device sharing ({@code pkg/scheduler/api/devices/nvidia/vgpu/utils_test.go},
 * {@code hamicore_test.go}) and several HAMi pods sharing one card. HAMi's {@code gpumem} is a MiB request, {@code
 * gpu} the device count; a device's used memory is a running job holding that share of it.
 *
 * <p>The GPU a share lands on follows Quotient's own rule inside a node: the fullest GPU that still holds it (HAMi's
 * and Volcano's {@code binpack} GPU policy), never their {@code spread}, and the lowest index among equals where they
 * walk from the last device; the tests that differ say so.
 */
class HamiSharingScenariosTest {

    private static NodeSpec node(String name, int gpus, long gpuMib) {
        return new NodeSpec(name, 64_000, 256_000, gpus, "NVIDIA", gpuMib);
    }

    private static JobSpec mib(String name, long mib, int devices) {
        return Scenario.spec("team-a", name, new GpuRequest.Memory(mib, mib, devices), 0);
    }

    private static Scenario on(NodeSpec... nodes) {
        return Scenario.on(List.of(nodes)).team("team-a", 16, 1);
    }

    private static void holding(Scenario s, String name, String node, GpuRequest gpu, int milli, int gpu0) {
        PlacedJob job = new PlacedJob(
                Scenario.spec("team-b", name, gpu, 0),
                node,
                List.of(gpu0),
                milli,
                QuotaState.IN_QUOTA,
                s.run.now.minus(Duration.ofHours(1)));
        s.run.placed.put(job.id(), job);
    }

    /** One node of {@code gpus} 8000 MiB devices, device {@code gpu} already holding 4000 MiB (half of it). */
    private static Scenario halfHeld(int gpus, int gpu) {
        Scenario s = on(node("node1", gpus, 8000));
        holding(s, "half", "node1", new GpuRequest.Memory(4000, 4000, 1), 500, gpu);
        return s;
    }

    private static Set<String> gpusOf(Scenario s, String... names) {
        Set<String> gpus = new HashSet<>();
        for (String n : names) {
            PlacedJob p = s.run.placement("team-a", n);
            p.gpuIndices().forEach(g -> gpus.add(p.node() + "/" + g));
        }
        return gpus;
    }

    @Test
    void aShareOnAFreeDevice() {
        // HAMi Test_calcScore "one node one device one pod one container use one device": 8000 MiB device, Memreq
        // 1000, Coresreq 30: placed on uuid1 with 1000 MiB.
        Scenario s = on(node("node1", 1, 8000)).deploy(mib("test1", 1000, 1));
        PlacedJob p = s.run.placement("team-a", "test1");
        assertThat(p.gpuIndices()).containsExactly(0);
        assertThat(p.milliPerGpu()).isEqualTo(125);
    }

    @Test
    void aShareJoinsAHalfUsedDevice() {
        // HAMi "... use one device, but this device before having use": the device holds 4000 of 8000 MiB: the
        // pod still fits there.
        Scenario s = halfHeld(1, 0).deploy(mib("test1", 1000, 1));
        assertThat(s.run.placement("team-a", "test1").gpuIndices()).containsExactly(0);
    }

    @Test
    void ofTwoFreeDevicesTheLowestIndex() {
        // HAMi "one node two device one pod one container use one device": both free; HAMi takes uuid2 (it walks
        // from the last device). Quotient differs by rule: the lowest index among equally free GPUs.
        Scenario s = on(node("node1", 2, 8000)).deploy(mib("test1", 1000, 1));
        assertThat(s.run.placement("team-a", "test1").gpuIndices()).containsExactly(0);
    }

    @Test
    void aShareGoesToTheUsedDeviceNotTheFreeOne() {
        // HAMi "one node two device ... but having use 50%": uuid2 holds 4000 of 8000 MiB; HAMi's test runs the
        // spread GPU policy and takes the free uuid1. Quotient packs inside a node (HAMi's binpack GPU policy, and
        // Volcano's "binpack picks busier device"): the share joins uuid2 and keeps uuid1 whole for a whole-GPU job.
        Scenario s = halfHeld(2, 1).deploy(mib("test1", 1000, 1));
        assertThat(s.run.placement("team-a", "test1").gpuIndices()).containsExactly(1);
    }

    @Test
    void theSameMemoryOnTwoDevices() {
        // HAMi "one node two device one pod one container use two device": Nums 2, Memreq 1000: both devices, each
        // with 1000 MiB.
        Scenario s = on(node("node1", 2, 8000)).deploy(mib("test1", 1000, 2));
        PlacedJob p = s.run.placement("team-a", "test1");
        assertThat(p.gpuIndices()).containsExactly(0, 1);
        assertThat(p.milliPerGpu()).isEqualTo(125);
    }

    @Test
    void twoDevicesPerPodNeedTwoDevicesWithRoom() {
        // HAMi (fit across devices): Nums 2 with 5000 MiB each, one of the two 8000 MiB devices already holds 4000:
        // only one device has room, so the pod does not fit that node; a second node with two free devices takes it.
        Scenario s = on(node("node1", 2, 8000), node("node2", 2, 8000));
        holding(s, "half", "node1", new GpuRequest.Memory(4000, 4000, 1), 500, 0);
        s.deploy(mib("test1", 5000, 2));
        assertThat(s.run.placement("team-a", "test1").node()).isEqualTo("node2");
    }

    @Test
    void binpackStacksSequentialPodsOnOneDevice() {
        // Volcano TestBinpackStacksSequentialPods: three GPUs of 16384 MiB, three pods of 4096 MiB one after
        // another: binpack puts all three on the same GPU. Quotient does the same.
        Scenario s = on(node("node-1", 3, 16384)).deploy(mib("a", 4096, 1), mib("b", 4096, 1), mib("c", 4096, 1));
        assertThat(gpusOf(s, "a", "b", "c")).hasSize(1);
    }

    @Test
    void sharesAccumulateUpToTheDevice() {
        // Volcano hamicore_test TestHAMICoreFactory_AddPodDistinctUIDsAccumulate: three pods of 1000 MiB on a 16384
        // MiB device add up to 3000 MiB; and four of 4096 fill it exactly, a fifth does not fit there.
        Scenario s = on(node("n", 1, 16384));
        for (String name : List.of("a", "b", "c", "d")) {
            s.deploy(mib(name, 4096, 1));
        }
        s.deploy(mib("e", 4096, 1));
        assertThat(s.running()).containsExactly("team-a/a", "team-a/b", "team-a/c", "team-a/d");
        assertThat(s.pending()).containsExactly("team-a/e");
    }

    @Test
    void threeThirdsOfAGpu() {
        // HAMi (Fit: Usedmem + Memreq <= Totalmem): a 24 GiB card (24576 MiB, A10 / L4) takes three pods of 8192 MiB,
        // 24576 in all. Quotient counts each GPU's memory exactly (thousandths of a MiB, GpuUnits), so the three fit
        // as in HAMi; each is still charged its share rounded up (8192 of 24576 is 333.3, so 334) for quotas.
        Scenario s = on(node("n", 1, 24576)).deploy(mib("a", 8192, 1), mib("b", 8192, 1), mib("c", 8192, 1));
        assertThat(s.running()).containsExactly("team-a/a", "team-a/b", "team-a/c");
        assertThat(s.pending()).isEmpty();
        assertThat(s.run.placement("team-a", "a").milliPerGpu()).isEqualTo(334);
        s.deploy(mib("d", 1, 1));
        assertThat(s.pending()).containsExactly("team-a/d");
    }

    @Test
    void threeFiveGibPodsOnAT4() {
        // The same on a 16 GB T4 as it reports itself (15360 MiB): HAMi fits three pods of 5120 MiB exactly, and so
        // does Quotient, on the one GPU.
        Scenario s = on(node("n", 1, 15360)).deploy(mib("a", 5120, 1), mib("b", 5120, 1), mib("c", 5120, 1));
        assertThat(s.running()).containsExactly("team-a/a", "team-a/b", "team-a/c");
        assertThat(s.pending()).isEmpty();
    }

    @Test
    void powerOfTwoSplitsAreExact() {
        // Where the split is exact in thousandths the rounding costs nothing: two 8192 MiB pods fill a 16384 MiB GPU
        // (500 each), as in HAMi, and a pod of 1 MiB more no longer fits.
        Scenario s = on(node("n", 1, 16384)).deploy(mib("a", 8192, 1), mib("b", 8192, 1), mib("c", 1, 1));
        assertThat(s.running()).containsExactly("team-a/a", "team-a/b");
        assertThat(s.pending()).containsExactly("team-a/c");
    }

    @Test
    void aMibShareBesideAFractionFillsTheRest() {
        // HAMi: a device with 50 % of its memory taken (gpumem-percentage 50) takes another pod for the other half
        // of its MiB, and then nothing more. Quotient: a 0.5 fraction and 8192 of 16384 MiB fill the GPU.
        Scenario s = on(node("n", 1, 16384));
        holding(s, "half", "n", new GpuRequest.Fraction(500, 500, 1), 500, 0);
        s.deploy(mib("p", 8192, 1));
        assertThat(s.run.isPlaced("team-a", "p")).isTrue();
        s.deploy(mib("q", 1, 1));
        assertThat(s.pending()).containsExactly("team-a/q");
    }

    @Test
    void aMibShareOneOverWhatIsFreeWaits() {
        // HAMi CardInsufficientMemory at the boundary: 8192 MiB held of 16384, a pod asks 8193: refused.
        Scenario s = on(node("n", 1, 16384));
        holding(s, "half", "n", new GpuRequest.Memory(8192, 8192, 1), 500, 0);
        s.deploy(mib("p", 8193, 1));
        assertThat(s.pending()).containsExactly("team-a/p");
    }

    @Test
    void aRequestForAllOfAGpusMemoryIsAWholeGpu() {
        // HAMi: gpumem equal to the device's memory fits a free device and then shares it with nobody.
        Scenario s = on(node("n", 1, 16384)).deploy(mib("all", 16384, 1));
        assertThat(s.run.placement("team-a", "all").milliPerGpu()).isEqualTo(1000);
        s.deploy(Scenario.spec("team-a", "share", new GpuRequest.Fraction(100, 100, 1), 0));
        assertThat(s.pending()).containsExactly("team-a/share");
    }

    @Test
    void aRequestLargerThanAnyFreeDeviceWaitsForOne() {
        // HAMi: Memreq larger than what any device has free: no fit on that node; a node with a free device fits.
        Scenario s = on(node("busy", 2, 16384), node("free", 1, 16384));
        holding(s, "x", "busy", new GpuRequest.Memory(10000, 10000, 1), 611, 0);
        holding(s, "y", "busy", new GpuRequest.Memory(10000, 10000, 1), 611, 1);
        s.deploy(mib("p", 8000, 1));
        assertThat(s.run.placement("team-a", "p").node()).isEqualTo("free");
    }
}
