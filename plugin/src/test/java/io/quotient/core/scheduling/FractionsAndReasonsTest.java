package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Fractional and MiB requests, heterogeneous nodes, and the reasons a job waits. */
class FractionsAndReasonsTest {

    private static JobSpec spec(String name, GpuRequest gpu, Set<String> models, long cpu) {
        return new JobSpec(new JobId("team-a", name), gpu, cpu, 0, models, 0, true, Duration.ZERO);
    }

    @Test
    void fractionsArePlacedOnAGpuAndShareItWithoutExceedingIt() {
        ClusterRun run = ClusterRun.fourByTen().team("team-a", 20);
        for (int i = 0; i < 6; i++) {
            run.deploy(ClusterRun.fraction("team-a", "f" + i, 400));
        }
        Map<String, Integer> perGpu = new HashMap<>();
        run.placed.values().forEach(j -> {
            assertThat(j.gpuIndices()).hasSize(1);
            assertThat(j.milliPerGpu()).isEqualTo(400);
            perGpu.merge(j.node() + "/" + j.gpuIndices().get(0), j.milliPerGpu(), Integer::sum);
        });
        assertThat(run.placed).hasSize(6);
        assertThat(perGpu.values()).allSatisfy(m -> assertThat(m).isLessThanOrEqualTo(1000));
        assertThat(perGpu)
                .as("two 0.4 fit one GPU; the packing uses 3 GPUs for 6 fractions")
                .hasSize(3);
    }

    @Test
    void theSameFractionOnSeveralGpusOfOneNode() {
        ClusterRun run = ClusterRun.fourByTen().team("team-a", 20);
        run.deploy(spec("multi", new GpuRequest.Fraction(250, 500, 4), Set.of(), 0));
        PlacedJob job = run.placement("team-a", "multi");
        assertThat(job.gpuIndices()).hasSize(4).doesNotHaveDuplicates();
        assertThat(job.milliPerGpu()).isEqualTo(250);
        assertThat(job.gpuMilli()).isEqualTo(1000);
    }

    @Test
    void fractionsGoOnlyToNodesWhoseEnforcerIsReady() {
        ClusterRun run = ClusterRun.fourByTen().team("team-a", 20);
        run.fractionReady = Set.of("node-3");
        run.deploy(ClusterRun.fraction("team-a", "f", 500));
        run.deploy(ClusterRun.job("team-a", "whole", 10));
        assertThat(run.placement("team-a", "f").node()).isEqualTo("node-3");
        assertThat(run.placement("team-a", "whole").node()).isNotEqualTo("node-3");

        run.fractionReady = Set.of();
        run.deploy(ClusterRun.fraction("team-a", "g", 500));
        assertThat(run.reason("team-a", "g")).startsWith("no node that could hold it is ready for shared GPUs");
    }

    @Test
    void mibRequestsAreConvertedWithTheChosenNodesGpuMemory() {
        ClusterRun run = new ClusterRun(
                        QuotaScheduler.withDefaults(),
                        List.of(
                                new NodeSpec("big", 64_000, 256_000, 4, "A100-80GB", 81_920),
                                new NodeSpec("small", 64_000, 256_000, 4, "T4", 16_384)))
                .team("team-a", 8);
        run.deploy(spec("on-big", new GpuRequest.Memory(2000, 4000, 1), Set.of("A100-80GB"), 0));
        run.deploy(spec("on-small", new GpuRequest.Memory(2000, 4000, 1), Set.of("T4"), 0));
        assertThat(run.placement("team-a", "on-big").milliPerGpu()).isEqualTo(25);
        assertThat(run.placement("team-a", "on-small").milliPerGpu()).isEqualTo(123);
        assertThat(run.held("team-a")).isEqualTo(0.148);
    }

    @Test
    void aMissingModelIsNamed() {
        ClusterRun run = ClusterRun.fourByTen().team("team-a", 20);
        run.deploy(spec("h100", new GpuRequest.WholeGpus(1), Set.of("H100"), 0));
        assertThat(run.reason("team-a", "h100"))
                .isEqualTo("it cannot run on this cluster as requested: no node has"
                        + " GPU model H100 (the cluster has A100-SXM4-80GB)");
    }

    @Test
    void aJobLargerThanAnyNodeSaysSo() {
        ClusterRun run = ClusterRun.fourByTen().team("team-a", 20);
        run.deploy(ClusterRun.job("team-a", "huge", 12));
        assertThat(run.reason("team-a", "huge"))
                .isEqualTo("it cannot run on this cluster as requested: no node has" + " 12 GPUs (the largest has 10)");
    }

    @Test
    void fragmentationIsExplainedWithTheNearestCandidates() {
        ClusterRun run = ClusterRun.fourByTen().team("team-a", 30).team("team-b", 10);
        for (int i = 1; i <= 4; i++) {
            run.placed.put(
                    new JobId("team-a", "a" + i),
                    new PlacedJob(
                            ClusterRun.job("team-a", "a" + i, 6),
                            "node-" + i,
                            List.of(0, 1, 2, 3, 4, 5),
                            1000,
                            QuotaState.IN_QUOTA,
                            run.now));
        }
        run.deploy(ClusterRun.job("team-b", "eight", 8));
        assertThat(run.reason("team-b", "eight"))
                .isEqualTo("fragmentation: 16 GPUs with a whole GPU free in total,"
                        + " but no node has 8 whole GPUs free; nearest candidates: node-1 (4 of 8), node-2 (4 of 8), node-3"
                        + " (4 of 8); team-b is within its guarantee but no borrowed GPUs could be taken back to make room"
                        + " (a team above its guarantee loses only down to it, or, when none of its jobs fits that, as far"
                        + " below it as this team is now; non-preemptible jobs and jobs inside their minimum runtime are never"
                        + " preempted)");
    }

    @Test
    void aFullClusterSaysEveryGpuIsInUse() {
        ClusterRun run = ClusterRun.fourByTen().team("team-a", 40).team("team-b", 0);
        for (int i = 1; i <= 4; i++) {
            run.deploy(ClusterRun.job("team-a", "a" + i, 10));
        }
        run.deploy(ClusterRun.fraction("team-b", "small", 100));
        assertThat(run.reason("team-b", "small"))
                .isEqualTo("team-b has used its guarantee (0 of 0 GPUs) and borrows"
                        + " only idle GPUs: every GPU is in use (none has 0.1 of a GPU free)");
    }

    @Test
    void missingCpuIsNamed() {
        ClusterRun run = ClusterRun.fourByTen().team("team-a", 20);
        for (int i = 1; i <= 4; i++) {
            run.placed.put(
                    new JobId("team-b", "cpu" + i),
                    new PlacedJob(
                            spec("cpu" + i, new GpuRequest.None(), Set.of(), 127_000),
                            "node-" + i,
                            List.of(),
                            0,
                            QuotaState.IN_QUOTA,
                            run.now));
        }
        run.deploy(spec("needs-cpu", new GpuRequest.WholeGpus(1), Set.of(), 4_000));
        assertThat(run.reason("team-a", "needs-cpu"))
                .startsWith("nodes with 1 whole GPU free lack CPU or memory:" + " node-1 has 1000m CPU");
    }
}
