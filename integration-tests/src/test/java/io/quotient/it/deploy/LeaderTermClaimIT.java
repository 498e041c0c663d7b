package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.core.model.QuotaState;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.StaleRecordException;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two replicas' record stores on the real API server: the leader of an earlier term decided a placement on its view
 * and froze before sending it (past its Lease); the new leader claims the records for its term before deciding; the
 * late write then fails on the record's version instead of landing on a GPU the new leader may give away. The short
 * soak saw the write land without the claim: a gang's replica and a fraction on one GPU.
 */
@RealKubernetes
class LeaderTermClaimIT {

    private static final JobStatus PLACED_ON_NODE_1 = JobStatus.placed(
            "node-1", List.of(new GpuBinding(0, null, 1)), QuotaState.IN_QUOTA, Instant.parse("2026-11-27T10:00:00Z"));

    private AdapterFixture earlierLeader;
    private AdapterFixture newLeader;
    private ClusterFacts cluster;

    @BeforeAll
    static void installCrd(ApiClient client) {
        QuotientManifests.installCrd(client);
    }

    @BeforeEach
    void setUp(ControlPlane plane, TestNamespace namespace) {
        earlierLeader = new AdapterFixture(plane.newApiClient(), plane.newApiClient(), namespace.name());
        newLeader = new AdapterFixture(plane.newApiClient(), plane.newApiClient(), namespace.name());
        cluster = new ClusterFacts(plane.apiClient(), namespace.name());
        earlierLeader.store.claimForTerm("replica-1@t1");
    }

    @AfterEach
    void tearDown() {
        earlierLeader.close();
        newLeader.close();
    }

    @Test
    void aPlacementTheEarlierLeaderSendsAfterTheClaimFailsAndChangesNothing() throws Exception {
        JobRecord waiting = earlierLeader.store.create(AdapterFixture.wholeGpuRecord("team-a", "gang", 1));
        JobRecord done = earlierLeader.store.create(AdapterFixture.wholeGpuRecord("team-a", "done", 1));
        earlierLeader.store.updateStatus(done, JobStatus.pending("x").withPhase(JobPhase.SUCCEEDED, "completed"));
        // the earlier leader decides to place "gang" on its view, passes its leadership check, and freezes

        int claimed = newLeader.store.claimForTerm("replica-2@t2");

        assertThat(claimed).as("the live record; not the finished one").isEqualTo(1);
        assertThatThrownBy(() -> earlierLeader.store.updateStatus(waiting, PLACED_ON_NODE_1))
                .as("the frozen leader wakes and sends its placement")
                .isInstanceOf(StaleRecordException.class);
        JsonObject stored = statusOf("gang");
        assertThat(stored.get("phase").getAsString()).isEqualTo("Pending");
        assertThat(stored.has("node")).as("no GPU taken").isFalse();
        assertThat(stored.get("leaderTerm").getAsString()).isEqualTo("replica-2@t2");
        assertThat(statusOf("done").get("leaderTerm").getAsString()).isEqualTo("replica-1@t1");

        // the new leader reads the records as stored at once, and its own decisions carry its term
        JobRecord seen = newLeader.store.find(waiting.id()).orElseThrow();
        assertThat(seen.version()).isEqualTo(resource("gang").getMetadata().getResourceVersion());
        newLeader.store.updateStatus(seen, PLACED_ON_NODE_1);
        assertThat(statusOf("gang").get("node").getAsString()).isEqualTo("node-1");
        assertThat(statusOf("gang").get("leaderTerm").getAsString()).isEqualTo("replica-2@t2");
    }

    @Test
    void withoutAClaimTheLateWriteLands() throws Exception {
        JobRecord waiting = earlierLeader.store.create(AdapterFixture.wholeGpuRecord("team-a", "gang", 1));
        newLeader.store.find(waiting.id()); // the new leader only reads: nothing fences the earlier term's write

        earlierLeader.store.updateStatus(waiting, PLACED_ON_NODE_1);

        assertThat(statusOf("gang").get("node").getAsString())
                .as("what the claim prevents")
                .isEqualTo("node-1");
    }

    @Test
    void aRecordMadeJustBeforeTheClaimIsClaimedThoughTheNewLeadersCacheMayNotHoldItYet() throws Exception {
        JobRecord running = earlierLeader.store.create(
                AdapterFixture.wholeGpuRecord("team-b", "eval", 1).withStatus(PLACED_ON_NODE_1));
        JobRecord fresh = earlierLeader.store.create(AdapterFixture.wholeGpuRecord("team-b", "fresh", 1));

        assertThat(newLeader.store.claimForTerm("replica-2@t2"))
                .as("read from the API server, not a cache")
                .isEqualTo(2);

        assertThatThrownBy(() -> earlierLeader.store.updateStatus(fresh, PLACED_ON_NODE_1))
                .isInstanceOf(StaleRecordException.class);
        assertThatThrownBy(() -> earlierLeader.store.updateStatus(
                        running, running.status().withPhase(JobPhase.PREEMPTED, "a late eviction")))
                .isInstanceOf(StaleRecordException.class);
        assertThat(newLeader.store.find(fresh.id()))
                .get()
                .extracting(JobRecord::phase)
                .isEqualTo(JobPhase.PENDING);
        assertThat(newLeader.store.find(running.id()))
                .get()
                .extracting(JobRecord::phase)
                .isEqualTo(JobPhase.PLACED);
    }

    @Test
    void aNewJobsRecordIsCreatedUndecidedInOneWriteAndALatePlacementOnItFails() throws Exception {
        JobRecord created = earlierLeader.store.create(
                AdapterFixture.wholeGpuRecord("team-a", "new", 1).withStatus(JobStatus.undecided()));
        assertThat(resource("new").getRaw().has("status"))
                .as("no status write for an undecided record")
                .isFalse();
        assertThat(created.status()).isEqualTo(JobStatus.undecided());

        newLeader.store.claimForTerm("replica-2@t2");

        assertThatThrownBy(() -> earlierLeader.store.updateStatus(created, PLACED_ON_NODE_1))
                .isInstanceOf(StaleRecordException.class);
        assertThat(newLeader.store.find(created.id()))
                .get()
                .extracting(JobRecord::status)
                .isEqualTo(JobStatus.undecided());
    }

    private JsonObject statusOf(String name) throws Exception {
        return resource(name).getRaw().getAsJsonObject("status");
    }

    private DynamicKubernetesObject resource(String name) throws Exception {
        return cluster.gpuJobs().stream()
                .filter(o -> name.equals(
                        o.getRaw().getAsJsonObject("spec").get("name").getAsString()))
                .findFirst()
                .orElseThrow();
    }
}
