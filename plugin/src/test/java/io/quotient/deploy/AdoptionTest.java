package io.quotient.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.JobId;
import io.quotient.core.model.Team;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.request.GpuAsk;
import io.quotient.core.request.JobRequestInput;
import io.quotient.core.scheduling.QuotaScheduler;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.WorkloadRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The leader records each adoptable workload once, as a job governing it, placed or queued like a REST job. */
class AdoptionTest {

    private final AtomicBoolean leader = new AtomicBoolean(true);
    private final ServiceHarness h = new ServiceHarness(
            new QuotaScheduler("quotient", 0, TargetWorkload.typical()),
            ScriptedScheduler.SIMPLE_VALIDATOR,
            List.of(new NodeSpec("gpu-node-1", 64_000, 512_000, 8, "A100", 81_920)),
            Map.of("team-a", Team.of("team-a", 8)),
            gateway -> gateway,
            leader::get,
            store -> store);
    private final List<JobSubmission> seen = new ArrayList<>();
    private final Adoption adoption = new Adoption(() -> List.copyOf(seen), h.store, h.deployments, leader::get);

    private static JobSubmission workload(String name, String uid, int gpus) {
        return JobSubmission.governing(
                JobRequestInput.of("team-a", name).with(GpuAsk.whole(gpus)),
                "team-a",
                new WorkloadRef("batch/v1", "Job", name, uid));
    }

    @Test
    void anAdoptableWorkloadIsRecordedOnceAndPlacedLikeARestJob() {
        seen.add(workload("ingest", "u-1", 2));
        assertThat(adoption.adoptNew()).isEqualTo(1);
        assertThat(adoption.adoptNew()).as("recorded already").isZero();
        var record = h.store.find(new JobId("team-a", "ingest")).orElseThrow();
        assertThat(record.phase()).isEqualTo(JobPhase.PLACED);
        assertThat(record.submission().workload()).isEqualTo(new WorkloadRef("batch/v1", "Job", "ingest", "u-1"));
    }

    @Test
    void aWorkloadThatDoesNotFitWaitsWithAReason() {
        seen.add(workload("big", "u-2", 16));
        adoption.adoptNew();
        var record = h.store.find(new JobId("team-a", "big")).orElseThrow();
        assertThat(record.phase()).isEqualTo(JobPhase.PENDING);
        assertThat(record.status().reason()).isNotBlank();
    }

    @Test
    void aFollowerAdoptsNothing() {
        leader.set(false);
        seen.add(workload("ingest", "u-1", 2));
        assertThat(adoption.adoptNew()).isZero();
        assertThat(h.store.find(new JobId("team-a", "ingest"))).isEmpty();
    }

    @Test
    void aNameTakenByAnotherJobLeavesTheWorkloadSuspended() {
        seen.add(workload("ingest", "u-1", 2));
        adoption.adoptNew();
        JobSubmission sameName = workload("ingest", "u-9", 2);
        assertThat(Adoption.plan(List.of(sameName), h.store::find)).isEmpty();
        assertThat(h.store
                        .find(new JobId("team-a", "ingest"))
                        .orElseThrow()
                        .submission()
                        .workload()
                        .uid())
                .isEqualTo("u-1");
    }
}
