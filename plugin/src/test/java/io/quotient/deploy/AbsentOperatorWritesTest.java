package io.quotient.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.Team;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.request.GpuAsk;
import io.quotient.core.request.JobRequestInput;
import io.quotient.core.scheduling.QuotaScheduler;
import io.quotient.deploy.port.ForwardingWorkloadGateway;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.LeadershipGate;
import io.quotient.deploy.port.WorkloadGateway;
import io.quotient.deploy.port.WorkloadRef;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An adopted workload whose operator is absent (issue 31, finding 11): the placement is applied again with an
 * exponential, capped back-off, not on every reconciliation pass (about 240 writes in 160 s before).
 */
class AbsentOperatorWritesTest {

    private static final JobId JOB = new JobId("team-a", "llm");

    /** Counts the deploys of adopted workloads and, as without their operator, starts no pod for them. */
    private static final class CountingGateway extends ForwardingWorkloadGateway {
        final AtomicInteger adoptedDeploys = new AtomicInteger();
        final AtomicBoolean operatorRuns = new AtomicBoolean();

        CountingGateway(WorkloadGateway delegate) {
            super(delegate);
        }

        @Override
        public void deploy(JobRecord record, PlacedJob placement, List<GpuBinding> gpus) {
            if (!record.submission().adopted() || operatorRuns.get()) {
                super.deploy(record, placement, gpus);
            }
            if (record.submission().adopted()) {
                adoptedDeploys.incrementAndGet();
            }
        }
    }

    private CountingGateway counting;
    private final ServiceHarness h = new ServiceHarness(
            new QuotaScheduler("quotient", 0, TargetWorkload.typical()),
            ScriptedScheduler.SIMPLE_VALIDATOR,
            List.of(new NodeSpec("gpu-node-1", 64_000, 512_000, 8, "A100", 81_920)),
            Map.of("team-a", Team.of("team-a", 8)),
            gateway -> counting = new CountingGateway(gateway),
            LeadershipGate.ALWAYS);

    private void adoptTrainJob() {
        JobSubmission trainJob = JobSubmission.governing(
                JobRequestInput.of("team-a", "llm").with(GpuAsk.whole(2)),
                "team-a",
                new WorkloadRef("trainer.kubeflow.org/v1alpha1", "TrainJob", "llm", "u-1"));
        new Adoption(() -> List.of(trainJob), h.store, h.deployments, () -> true).adoptNew();
        assertThat(h.store.find(JOB).orElseThrow().phase()).isEqualTo(JobPhase.PLACED);
    }

    /** Reconciliation passes, one a second, as the service's requeue runs them. */
    private void passes(int seconds) {
        for (int i = 0; i < seconds; i++) {
            h.clock.advance(Duration.ofSeconds(1));
            h.decisions.requeuePending();
        }
    }

    @Test
    void thePlacementOfAWorkloadWithoutPodsIsAppliedAgainWithABackoff() {
        adoptTrainJob();
        int atPlacement = counting.adoptedDeploys.get();

        passes(160);

        // tries at 1, 6, 16, 36, 76 and 156 s: each wait twice the previous one
        assertThat(counting.adoptedDeploys.get() - atPlacement).isEqualTo(6);
        assertThat(h.store.find(JOB).orElseThrow().phase())
                .as("still placed: its GPUs stay held")
                .isEqualTo(JobPhase.PLACED);
    }

    @Test
    void theBackoffIsCappedSoAnOperatorThatComesLateIsServedWithinTheCap() {
        adoptTrainJob();
        passes(3_600);
        int beforeOperator = counting.adoptedDeploys.get();
        assertThat(beforeOperator)
                .as("at most one try per 5 minutes once capped")
                .isLessThan(20);

        counting.operatorRuns.set(true);
        passes((int) AbsentWorkloadBackoff.CAP.toSeconds());

        assertThat(counting.adoptedDeploys.get()).isGreaterThan(beforeOperator);
        assertThat(h.store.find(JOB).orElseThrow().phase()).isEqualTo(JobPhase.RUNNING);
    }
}
