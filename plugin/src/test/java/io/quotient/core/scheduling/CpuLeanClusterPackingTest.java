package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The problem statement's packing case (six 3-GPU jobs of team A, then an 8-GPU job of team B) on GPU nodes with
 * few cores per GPU. The default workload's multi-GPU shapes ask for about 8 cores per GPU; unfitted, none of them
 * fits a 16-core node with 10 GPUs, so the policy saw no point in keeping GPUs together and spread the six jobs
 * two per node over three nodes, leaving no whole node for the 8-GPU job.
 */
class CpuLeanClusterPackingTest {

    private static List<NodeSpec> nodes(long cpuMilli, long memoryMib) {
        List<NodeSpec> nodes = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            nodes.add(new NodeSpec("node-" + i, cpuMilli, memoryMib, 10, ClusterRun.MODEL, ClusterRun.GPU_MIB));
        }
        return nodes;
    }

    private static JobSpec job(String team, String name, int gpus, long cpuMilli) {
        return new JobSpec(
                new JobId(team, name),
                new GpuRequest.WholeGpus(gpus),
                cpuMilli,
                4_096,
                Set.of(),
                0,
                true,
                Duration.ZERO);
    }

    @ParameterizedTest(name = "{0} milli CPU per node, {2} milli CPU per job")
    @CsvSource({
        "16000, 65536, 100",
        "16000, 65536, 1000",
        "16000, 65536, 2000",
        "32000, 65536, 1000",
        "64000, 65536, 1000",
        "64000, 65536, 2000",
        "128000, 1048576, 1000",
        "128000, 1048576, 2000"
    })
    void sixThreeGpuJobsShareTwoNodesAndLeaveAWholeNodeForEightGpus(long nodeCpu, long nodeMemory, long jobCpu) {
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), nodes(nodeCpu, nodeMemory))
                .team("team-a", 20)
                .team("team-b", 20);
        for (int i = 1; i <= 6; i++) {
            run.deploy(job("team-a", "a" + i, 3, jobCpu));
        }
        assertThat(run.held("team-a")).isEqualTo(18);
        assertThat(run.nodesOf("team-a")).hasSize(2);

        Plan plan = run.deploy(job("team-b", "big", 8, jobCpu));

        assertThat(run.isPlaced("team-b", "big")).isTrue();
        assertThat(run.placement("team-b", "big").node()).isNotIn(run.nodesOf("team-a"));
        assertThat(plan.actionsOf(PlanAction.Evict.class)).isEmpty();
        assertThat(run.held("team-a")).isEqualTo(18);
    }
}
