package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.PodGpuAsk;
import io.quotient.core.model.QuotaState;
import io.quotient.core.request.ForeignGpuRequests;
import io.quotient.core.request.RequestException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * HAMi's device-fit cases ({@code pkg/device/nvidia/device_test.go}, {@code TestDevices_Fit} and {@code
 * Test_checkType}), translated to Quotient's requests: HAMi's {@code nvidia.com/gpumem} is a MiB request
 * ({@link GpuRequest.Memory}), {@code gpumem-percentage} a fraction of the GPU's memory ({@link GpuRequest.Fraction}),
 * {@code nvidia.com/gpu} the device count, {@code use-gputype} the models a job accepts, {@code gpucores: 100} a
 * whole GPU. A HAMi device's {@code Totalmem} is the node's GPU memory; what a device already holds ({@code Usedmem},
 * {@code Usedcores}) is a running job on that GPU. Each test names the case and HAMi's outcome.
 *
 * <p>Quotient keeps one share per job and GPU (a fraction of its memory, or MiB converted with the node's GPU
 * memory), not HAMi's two independent counters: a HAMi request for both memory and cores maps to the dimension that
 * binds in the case, and a cores-only share has no equivalent (a fraction is of memory and compute together). Not
 * translated, each an equivalent Quotient lacks: {@code use-gpuuuid} / {@code nouse-gpuuuid} ("user assign use uuid
 * mismatch", "no use uuid match"; Quotient chooses the GPUs itself), the per-GPU sharer count {@code Count} ("card
 * overused", {@code CardTimeSlicingExhausted}: Quotient limits sharers only by their shares), per-GPU health and
 * cordons ({@code CardNotHealth}, {@code TestFit_DeviceCordon}: Quotient's readiness is per node, case below), and
 * {@code nouse-gputype} (Quotient pins are an allow-list; docs/user-guide.md, GPU sharing).
 */
class HamiDeviceFitScenariosTest {

    private static NodeSpec node(String name, int gpus, String model, long gpuMib) {
        return new NodeSpec(name, 64_000, 256_000, gpus, model, gpuMib);
    }

    private static JobSpec mib(String name, long mib, int devices) {
        return Scenario.spec("team-a", name, new GpuRequest.Memory(mib, mib, devices), 0);
    }

    private static JobSpec fraction(String name, int milli) {
        return Scenario.spec("team-a", name, new GpuRequest.Fraction(milli, milli, 1), 0);
    }

    private static JobSpec pinned(String name, GpuRequest gpu, String... models) {
        return new JobSpec(new JobId("team-a", name), gpu, 1000, 1024, Set.of(models), 0, true, Duration.ZERO);
    }

    private static Scenario on(NodeSpec... nodes) {
        return Scenario.on(List.of(nodes)).team("team-a", 16, 1);
    }

    /** A job already holding {@code milli} of each of the given GPUs (HAMi's Usedmem / Usedcores on the device). */
    private static void holding(Scenario s, String name, String node, JobSpec spec, int milli, int... gpus) {
        List<Integer> list = new ArrayList<>();
        for (int g : gpus) {
            list.add(g);
        }
        PlacedJob job =
                new PlacedJob(spec, node, list, milli, QuotaState.IN_QUOTA, s.run.now.minus(Duration.ofHours(1)));
        s.run.placed.put(job.id(), job);
    }

    /** One 1280 MiB device of which another team's fraction holds 0.1 (HAMi: a shared device, Used 20). */
    private static Scenario tenthHeld() {
        Scenario s = on(node("n", 1, "NVIDIA", 1280));
        holding(s, "share", "n", Scenario.spec("team-b", "share", new GpuRequest.Fraction(100, 100, 1), 0), 100, 0);
        return s;
    }

    @Test
    void fitSuccessTakesHalfOfAFreeDevice() {
        // HAMi "fit success": two free devices of 128 MiB, Memreq 64 (Coresreq 50): fits on one device, dev-1 (HAMi
        // walks the devices from the last). Quotient: 64 of 128 MiB is half the GPU; it fits one GPU. Which of two
        // equal GPUs differs by rule: Quotient takes the fullest that holds it, the lowest index among equals.
        Scenario s = on(node("n", 2, "NVIDIA", 128)).deploy(mib("p", 64, 1));
        PlacedJob p = s.run.placement("team-a", "p");
        assertThat(p.gpuIndices()).containsExactly(0);
        assertThat(p.milliPerGpu()).isEqualTo(500);
    }

    @Test
    void memoryNotEnoughIsRefused() {
        // HAMi "fit fail: memory not enough": Memreq 512 on a 128 MiB device: CardInsufficientMemory.
        Scenario s = on(node("n", 1, "NVIDIA", 128)).deploy(mib("p", 512, 1));
        assertThat(s.pending()).containsExactly("team-a/p");
        assertThat(s.run.reason("team-a", "p")).startsWith("it cannot run on this cluster as requested");
    }

    @Test
    void aDeviceWhoseComputeIsAllTakenRefusesAShare() {
        // HAMi "fit fail: core not enough": Usedcores 100 of 100, Memreq 512 of 1024: CardInsufficientCore.
        // Quotient: the GPU is held by a whole-GPU job; a MiB share cannot join it.
        Scenario s = on(node("n", 1, "NVIDIA", 1024));
        holding(s, "whole", "n", Scenario.job("team-b", "whole", 1, 0), 1000, 0);
        s.deploy(mib("p", 512, 1));
        assertThat(s.pending()).containsExactly("team-a/p");
    }

    @Test
    void aModelTheNodeLacksIsRefused() {
        // HAMi "fit fail: type mismatch": request type OtherType on an NVIDIA device: CardTypeMismatch.
        Scenario s = on(node("n", 1, "NVIDIA", 128)).deploy(pinned("p", new GpuRequest.Memory(64, 64, 1), "Other"));
        assertThat(s.pending()).containsExactly("team-a/p");
        assertThat(s.run.reason("team-a", "p")).contains("no node has GPU model Other");
    }

    @Test
    void aWholeGpuDoesNotJoinASharedDevice() {
        // HAMi "fit fail: card exclusively": the device is shared (Used 20), Coresreq 100 asks for it exclusively:
        // ExclusiveDeviceAllocateConflict. Quotient: a whole GPU is never placed on a GPU that holds a fraction.
        Scenario s = tenthHeld();
        s.deploy(Scenario.job("team-a", "p", 1, 0));
        assertThat(s.pending()).containsExactly("team-a/p");
    }

    @Test
    void aDeviceFilledBySharesRefusesAnother() {
        // HAMi "fit fail: CardComputeUnitsExhausted": sharers hold all 100 cores, Memreq 512, Coresreq 0: refused.
        // Quotient: two half-GPU fractions fill the GPU; a MiB share does not fit.
        Scenario s = on(node("n", 1, "NVIDIA", 1280));
        holding(s, "a", "n", Scenario.spec("team-b", "a", new GpuRequest.Fraction(500, 500, 1), 0), 500, 0);
        holding(s, "b", "n", Scenario.spec("team-b", "b", new GpuRequest.Fraction(500, 500, 1), 0), 500, 0);
        s.deploy(mib("p", 512, 1));
        assertThat(s.pending()).containsExactly("team-a/p");
    }

    @Test
    void moreDevicesThanTheNodeHasAreRefused() {
        // HAMi "AllocatedCardsInsufficientRequest" (Nums 2 on one device) and its multi-card variant (Nums 3 on two):
        // refused. Quotient: the same MiB on more GPUs than any node has cannot run as requested.
        Scenario one = on(node("n", 1, "NVIDIA", 1280)).deploy(mib("p", 512, 2));
        Scenario two = on(node("n", 2, "NVIDIA", 1280)).deploy(mib("p", 512, 3));
        assertThat(one.pending()).containsExactly("team-a/p");
        assertThat(two.pending()).containsExactly("team-a/p");
        assertThat(two.run.reason("team-a", "p")).startsWith("it cannot run on this cluster as requested");
    }

    @Test
    void aMemoryPercentageIsAFractionOfTheGpu() {
        // HAMi "fit success: memory percentage": MemPercentagereq 10 on a shared device (Used 20, Usedcores 10): fits.
        // Quotient: gpumem-percentage 10 is a fraction of 0.1; it joins the GPU another 0.1 already holds.
        Scenario s = tenthHeld();
        s.deploy(fraction("p", 100));
        assertThat(s.run.placement("team-a", "p").gpuIndices()).containsExactly(0);
    }

    @Test
    void aNodeNotReadyForSharingTakesNoShare() {
        // HAMi "fit fail: CardNotHealth": the only device is unhealthy: refused. Quotient's nearest equivalent is per
        // node: a node whose enforcer is not ready takes no share of a GPU.
        Scenario s = on(node("n", 1, "NVIDIA", 1280));
        s.run.fractionReady = Set.of();
        s.deploy(fraction("p", 100));
        assertThat(s.pending()).containsExactly("team-a/p");
        assertThat(s.run.reason("team-a", "p")).startsWith("no node that could hold it is ready for shared GPUs");
    }

    @Test
    void aModelPinMatchesAModelExactly() {
        // HAMi Test_checkType "use set GPUInUse don't set GPUNoUse annotation, device match": use-gputype A10 on an
        // "NVIDIA A100" device fits (HAMi matches by substring). Quotient differs by rule: a pin names a model as
        // GPU feature discovery reports it and matches exactly, so "A10" does not select A100s (which a user asking
        // for A10s would not want either).
        Scenario s =
                on(node("n", 1, "NVIDIA A100", 1280)).deploy(pinned("p", new GpuRequest.Fraction(500, 500, 1), "A10"));
        assertThat(s.pending()).containsExactly("team-a/p");
    }

    @Test
    void aModelPinSelectsItsModel() {
        // HAMi Test_checkType "use set GPUInUse set GPUNoUse annotation, device match": use A10, nouse A100, device
        // A10: fits. Quotient: pinned to A10 on a cluster of an A100 and an A10 node, the job lands on the A10.
        Scenario s = on(node("a100", 1, "NVIDIA A100", 1280), node("a10", 1, "NVIDIA A10", 1280))
                .deploy(pinned("p", new GpuRequest.Fraction(500, 500, 1), "NVIDIA A10"));
        assertThat(s.run.placement("team-a", "p").node()).isEqualTo("a10");
    }

    @Test
    void aModelListAcceptsAnyOfItsModels() {
        // Volcano vgpu TestCheckGPUtype "Multiple GPUInUse values, one matches" (AMD,NVIDIA,INTEL on NVIDIA): fits;
        // "none matches" (AMD,INTEL,MLU): refused. Quotient: the models a job accepts are a set.
        Scenario one = on(node("n", 1, "NVIDIA", 1280))
                .deploy(pinned("p", new GpuRequest.Fraction(500, 500, 1), "AMD", "NVIDIA", "INTEL"));
        Scenario none = on(node("n", 1, "NVIDIA", 1280))
                .deploy(pinned("p", new GpuRequest.Fraction(500, 500, 1), "AMD", "INTEL", "MLU"));
        assertThat(one.run.isPlaced("team-a", "p")).isTrue();
        assertThat(none.pending()).containsExactly("team-a/p");
    }

    @Test
    void aShareAboveAWholeGpuIsRefusedNotClamped() {
        // HAMi "fit success: but core limit can't exceed 100": Coresreq 120 is clamped to 100 and fits. Quotient
        // differs by rule: a share is below one GPU and a request above it is refused with the field to correct
        // (whole GPUs are asked with nvidia.com/gpu), so a user never gets another share than written.
        PodGpuAsk ask = new PodGpuAsk("metadata.annotations", Map.of(ForeignGpuRequests.FRACTION, "1.2"), Map.of());
        assertThatThrownBy(() -> ForeignGpuRequests.parse(ask)).isInstanceOf(RequestException.class);
    }
}
