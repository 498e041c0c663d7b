package io.quotient.adapters.k8s.adoption;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonParser;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.JobId;
import io.quotient.core.model.Team;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.request.JobSpecValidator;
import io.quotient.core.scheduling.QuotaScheduler;
import io.quotient.deploy.Adoption;
import io.quotient.deploy.JobFixtures;
import io.quotient.deploy.ServiceHarness;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.LeadershipGate;
import io.quotient.deploy.port.WorkloadRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A batch/v1 Job with {@code parallelism} > 1 asking for GPUs per pod is governed as a gang of its parallel pods
 * (issue 31, finding 10), with the rules every gang has: all or nothing, one pod per node, counted whole against its
 * team's quota, the gang's wait reason, and reclaimed whole.
 */
class ParallelBatchJobGangTest {

    private static final List<NodeSpec> THREE_NODES = List.of(
            new NodeSpec("gpu-node-1", 64_000, 512_000, 4, "A100", 81_920),
            new NodeSpec("gpu-node-2", 64_000, 512_000, 4, "A100", 81_920),
            new NodeSpec("gpu-node-3", 64_000, 512_000, 4, "A100", 81_920));

    private final JobSpecValidator validator = new JobSpecValidator();
    private final ServiceHarness h = new ServiceHarness(
            new QuotaScheduler("quotient", 0, TargetWorkload.typical()),
            (input, teams) -> validator.validateRequest(input),
            THREE_NODES,
            Map.of("team-a", Team.of("team-a", 0), "team-b", Team.of("team-b", 4)),
            gateway -> gateway,
            LeadershipGate.ALWAYS);
    private final List<JobSubmission> seen = new ArrayList<>();
    private final Adoption adoption = new Adoption(() -> List.copyOf(seen), h.store, h.deployments, () -> true);

    /** The submission the adoption reads from a suspended Job of {@code parallelism} pods of {@code gpus} each. */
    private static JobSubmission parallelJob(String team, String name, int parallelism, int gpus) {
        String job = "{\"apiVersion\": \"batch/v1\", \"kind\": \"Job\", \"metadata\": {\"name\": \"" + name + "\"},"
                + " \"spec\": {\"suspend\": true, \"parallelism\": " + parallelism + ", \"template\": {\"spec\":"
                + " {\"restartPolicy\": \"Never\", \"containers\": [{\"name\": \"main\", \"image\": \"t\","
                + " \"resources\": {\"limits\": {\"nvidia.com/gpu\": \"" + gpus + "\"}}}]}}}}";
        var demand = ForeignWorkloadKind.BATCH_JOB
                .demand(JsonParser.parseString(job).getAsJsonObject())
                .orElseThrow();
        return JobSubmission.governing(
                demand.request(team, name), team, new WorkloadRef("batch/v1", "Job", name, "uid-" + name));
    }

    private JobRecord record(String team, String name) {
        return h.store.find(new JobId(team, name)).orElseThrow();
    }

    @Test
    void itsParallelPodsArePlacedTogetherOnePerNodeAndCountWhole() {
        seen.add(parallelJob("team-a", "sweep", 2, 4));
        adoption.adoptNew();

        JobRecord sweep = record("team-a", "sweep");
        assertThat(sweep.phase()).isEqualTo(JobPhase.PLACED);
        assertThat(sweep.spec().gang().replicas()).isEqualTo(2);
        List<String> nodes = new ArrayList<>(List.of(sweep.status().node()));
        sweep.status().otherReplicas().forEach(r -> nodes.add(r.node()));
        assertThat(nodes).doesNotHaveDuplicates().hasSize(2);
        assertThat(h.reports.teams())
                .filteredOn(t -> t.team().name().equals("team-a"))
                .singleElement()
                .satisfies(t -> assertThat(t.allocatedMilli()).isEqualTo(8_000));
    }

    @Test
    void itWaitsAllOrNothingWithTheGangsReason() {
        h.deployments.deploy(JobFixtures.wholeGpus("team-b", "b-1", 2));
        h.deployments.deploy(JobFixtures.wholeGpus("team-b", "b-2", 2));
        seen.add(parallelJob("team-a", "sweep", 3, 4));
        adoption.adoptNew();

        JobRecord sweep = record("team-a", "sweep");
        assertThat(sweep.phase())
                .as("two free nodes do not hold three pods: none is placed")
                .isEqualTo(JobPhase.PENDING);
        assertThat(sweep.status().reason()).contains("gang of 3 replicas");
    }

    @Test
    void itIsReclaimedWholeByATeamBelowItsGuarantee() {
        seen.add(parallelJob("team-a", "sweep", 3, 4)); // 12 GPUs, all borrowed (team-a has no guarantee)
        adoption.adoptNew();
        assertThat(record("team-a", "sweep").phase()).isEqualTo(JobPhase.PLACED);

        h.deployments.deploy(JobFixtures.wholeGpus("team-b", "b-1", 4));

        assertThat(record("team-a", "sweep").phase())
                .as("re-queued whole, not one pod")
                .isEqualTo(JobPhase.PENDING);
        assertThat(record("team-b", "b-1").phase()).isEqualTo(JobPhase.PLACED);
    }
}
