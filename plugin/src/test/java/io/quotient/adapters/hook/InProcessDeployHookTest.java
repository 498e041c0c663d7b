package io.quotient.adapters.hook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.request.RequestException;
import io.quotient.core.scheduling.Plan;
import io.quotient.core.scheduling.PlanAction;
import io.quotient.core.scheduling.Scheduler;
import io.quotient.deploy.JobFixtures;
import io.quotient.deploy.JobNotFoundException;
import io.quotient.deploy.ServiceHarness;
import io.quotient.deploy.TeamNotFoundException;
import io.quotient.deploy.port.JobAlreadyExistsException;
import io.quotient.deploy.port.JobSubmission;
import java.util.List;
import org.junit.jupiter.api.Test;

class InProcessDeployHookTest {

    /** Places one-GPU jobs on gpu-node-1, in order; anything bigger waits. */
    private static final Scheduler ONE_GPU_JOBS = new Scheduler() {
        @Override
        public Plan schedule(SchedulingSnapshot s, JobSpec job) {
            if (job.gpu().devices() > 1) {
                return new Plan(List.of(new PlanAction.KeepPending(job.id(), "no node has 2 free GPUs")));
            }
            return new Plan(List.of(new PlanAction.Place(
                    new PlacedJob(job, "gpu-node-1", List.of(s.placed().size()), 1000, QuotaState.IN_QUOTA, s.now()))));
        }

        @Override
        public Plan schedulePending(SchedulingSnapshot snapshot) {
            return Plan.EMPTY;
        }

        @Override
        public Plan rebalance(SchedulingSnapshot snapshot, double maxMovedShare) {
            return Plan.EMPTY;
        }
    };

    private final ServiceHarness h = new ServiceHarness(
            ONE_GPU_JOBS,
            (input, teams) -> new JobSpec(
                    new JobId(input.team(), input.name()),
                    new GpuRequest.WholeGpus(input.gpu().count()),
                    0,
                    0,
                    null,
                    0,
                    true,
                    null));
    private final DeployHook hook = new InProcessDeployHook(h.deployments);

    @Test
    void beforeDeployPlacesOrQueuesLikeThePostRequest() {
        HookDecision placed = hook.beforeDeploy(JobFixtures.wholeGpus("team-a", "ingest", 1));
        HookDecision queued = hook.beforeDeploy(JobFixtures.wholeGpus("team-a", "train", 2));

        assertThat(placed.placed()).isTrue();
        assertThat(placed.node()).isEqualTo("gpu-node-1");
        assertThat(placed.quotaState()).isEqualTo("InQuota");
        assertThat(queued.pending()).isTrue();
        assertThat(queued.reason()).isEqualTo("no node has 2 free GPUs");
        assertThat(hook.status(queued.job()).phase()).isEqualTo(queued.phase());
    }

    @Test
    void aFailedDeploymentOfTheControlServiceWithdrawsTheJob() {
        HookDecision placed = hook.beforeDeploy(JobFixtures.wholeGpus("team-a", "ingest", 1));

        hook.afterDeploy(placed.job(), DeployOutcome.failed("could not store the deployment"));

        assertThat(h.store.find(placed.job())).isEmpty();
        assertThat(h.cluster.workloads()).isEmpty();
        hook.afterDeploy(placed.job(), DeployOutcome.failed("retry of the same report")); // idempotent
        assertThatThrownBy(() -> hook.status(placed.job())).isInstanceOf(JobNotFoundException.class);
    }

    @Test
    void aSuccessfulDeploymentKeepsTheJobAndUndeployRemovesIt() {
        HookDecision placed = hook.beforeDeploy(JobFixtures.wholeGpus("team-a", "ingest", 1));
        hook.afterDeploy(placed.job(), DeployOutcome.deployed());
        assertThat(h.cluster.workloadOf(placed.job())).isNotNull();

        hook.undeploy(placed.job());
        assertThat(h.cluster.workloadOf(placed.job())).isNull();
        assertThat(h.store.find(placed.job())).isEmpty();
    }

    @Test
    void errorsAreTheRestErrorsAndCreateNothing() {
        JobSubmission unknownTemplate = new JobSubmission(
                JobFixtures.wholeGpus("team-a", "x", 1).request(), "spark", null, null, null, null, null);
        assertThatThrownBy(() -> hook.beforeDeploy(unknownTemplate))
                .isInstanceOf(RequestException.class)
                .hasMessageContaining("template");
        assertThatThrownBy(() -> hook.beforeDeploy(JobFixtures.wholeGpus("team-z", "x", 1)))
                .isInstanceOf(TeamNotFoundException.class)
                .hasMessageContaining("team-a, team-b");
        hook.beforeDeploy(JobFixtures.wholeGpus("team-a", "x", 1));
        assertThatThrownBy(() -> hook.beforeDeploy(JobFixtures.wholeGpus("team-a", "x", 1)))
                .isInstanceOf(JobAlreadyExistsException.class);
        assertThat(h.store.listAll()).hasSize(1);
        assertThat(h.cluster.creations(new JobId("team-a", "x"))).isEqualTo(1);
    }
}
