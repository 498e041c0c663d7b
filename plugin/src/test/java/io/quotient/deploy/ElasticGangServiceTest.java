package io.quotient.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.adapters.memory.EmbeddedCluster;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.Team;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.request.GangAsk;
import io.quotient.core.request.GpuAsk;
import io.quotient.core.request.JobRequestInput;
import io.quotient.core.request.JobSpecValidator;
import io.quotient.core.scheduling.QuotaScheduler;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.LeadershipGate;
import io.quotient.deploy.port.Metadata;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An elastic gang through the service: started with its minimum while nodes were busy, it is grown by the re-queue
 * pass once they free (its workload restarted with every replica, an Event saying so), and only then.
 */
class ElasticGangServiceTest {

    private static final List<NodeSpec> FOUR_NODES = List.of(
            new NodeSpec("gpu-node-1", 64_000, 512_000, 8, "A100", 81_920),
            new NodeSpec("gpu-node-2", 64_000, 512_000, 8, "A100", 81_920),
            new NodeSpec("gpu-node-3", 64_000, 512_000, 8, "A100", 81_920),
            new NodeSpec("gpu-node-4", 64_000, 512_000, 8, "A100", 81_920));

    private final JobSpecValidator validator = new JobSpecValidator();
    private final ServiceHarness h = new ServiceHarness(
            new QuotaScheduler("quotient", 0, TargetWorkload.typical()),
            (input, teams) -> validator.validateRequest(input),
            FOUR_NODES,
            Map.of("team-a", Team.of("team-a", 32), "team-b", Team.of("team-b", 16)),
            gateway -> gateway,
            LeadershipGate.ALWAYS);

    @Test
    void anElasticGangGrowsWhenNodesFreeAndItsWorkloadRestartsWithEveryReplica() {
        JobRecord b1 = h.deployments.deploy(JobFixtures.wholeGpus("team-b", "b-1", 8));
        JobRecord b2 = h.deployments.deploy(JobFixtures.wholeGpus("team-b", "b-2", 8));
        JobRecord elastic = h.deployments.deploy(elasticGang("llm", 4, 2));
        assertThat(elastic.phase()).isEqualTo(JobPhase.PLACED);
        assertThat(elastic.status().otherReplicas())
                .as("started with 2 of 4 replicas")
                .hasSize(1);

        h.decisions.requeuePending();
        assertThat(replicas(elastic))
                .as("no node freed: it keeps its two replicas")
                .isEqualTo(2);

        h.deployments.delete(b1.id());
        h.deployments.delete(b2.id());
        h.decisions.requeuePending();

        JobRecord grown = h.store.find(elastic.id()).orElseThrow();
        assertThat(grown.phase()).isEqualTo(JobPhase.PLACED);
        assertThat(replicas(elastic)).isEqualTo(4);
        assertThat(h.cluster.events(elastic.id()))
                .extracting(EmbeddedCluster.Event::reason)
                .contains("Preempted", "Grown");
        assertThat(h.cluster.events(elastic.id()))
                .filteredOn(e -> e.reason().equals("Grown"))
                .singleElement()
                .satisfies(e -> assertThat(e.message()).startsWith("Grown from 2 to 4 of 4 replicas: placed on"));
        assertThat(h.metrics.preemptions).containsExactly("team-a/llm:grow");
        assertThat(h.cluster.workloadOf(elastic.id()))
                .as("its workload was made again")
                .isNotNull();
    }

    private int replicas(JobRecord job) {
        return 1 + h.store.find(job.id()).orElseThrow().status().otherReplicas().size();
    }

    private static JobSubmission elasticGang(String name, int replicas, int minReplicas) {
        JobRequestInput request =
                JobRequestInput.of("team-a", name).with(GpuAsk.whole(8)).with(new GangAsk(replicas, minReplicas));
        return new JobSubmission(request, "pytorchjob", "img", List.of(), List.of(), Metadata.NONE, Map.of());
    }
}
