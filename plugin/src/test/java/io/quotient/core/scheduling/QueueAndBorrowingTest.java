package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PendingJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The re-queue: queue order, lending idle capacity by weight (weighted max-min), maximums, non-preemptible jobs. */
class QueueAndBorrowingTest {

    private static JobSpec job(String team, String name, int gpus, int priority) {
        return new JobSpec(
                new JobId(team, name), new GpuRequest.WholeGpus(gpus), 0, 0, Set.of(), priority, true, Duration.ZERO);
    }

    private static void queue(ClusterRun run, JobSpec job) {
        run.pending.put(job.id(), new PendingJob(job, run.now));
        run.advance(Duration.ofSeconds(1));
    }

    @Test
    void queueOrderIsTeamPriorityThenJobPriorityThenAge() {
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(1, 10))
                .team(new Team("low", 10_000, Team.UNLIMITED, 1, 0))
                .team(new Team("high", 10_000, Team.UNLIMITED, 1, 1));
        queue(run, job("low", "old", 10, 0));
        queue(run, job("low", "urgent", 10, 5));
        queue(run, job("low", "young", 10, 0));
        queue(run, job("high", "latecomer", 10, 0));

        run.requeue();
        assertThat(run.isPlaced("high", "latecomer")).isTrue();
        run.finish("high", "latecomer");
        run.requeue();
        assertThat(run.isPlaced("low", "urgent")).isTrue();
        run.finish("low", "urgent");
        run.requeue();
        assertThat(run.isPlaced("low", "old")).isTrue();
        assertThat(run.reason("low", "young")).isNotBlank();
    }

    @Test
    void idleCapacityIsLentInProportionToTheBorrowingTeamsWeights() {
        ClusterRun run = ClusterRun.fourByTen()
                .team(new Team("light", 0, Team.UNLIMITED, 1, 0))
                .team(new Team("heavy", 0, Team.UNLIMITED, 3, 0));
        for (int i = 0; i < 40; i++) {
            queue(run, job("light", "l" + i, 1, 0));
            queue(run, job("heavy", "h" + i, 1, 0));
        }
        run.requeue();
        assertThat(run.held("light")).isEqualTo(10);
        assertThat(run.held("heavy")).isEqualTo(30);
        assertThat(run.held("heavy", QuotaState.OVER_QUOTA)).isEqualTo(30);
    }

    @Test
    void aHigherPriorityTeamBorrowsFirst() {
        ClusterRun run = ClusterRun.fourByTen()
                .team(new Team("first", 0, Team.UNLIMITED, 1, 2))
                .team(new Team("second", 0, Team.UNLIMITED, 10, 0));
        for (int i = 0; i < 35; i++) {
            queue(run, job("second", "s" + i, 1, 0));
            queue(run, job("first", "f" + i, 1, 0));
        }
        run.requeue();
        assertThat(run.held("first")).isEqualTo(35);
        assertThat(run.held("second")).isEqualTo(5);
    }

    @Test
    void guaranteesAreServedBeforeAnyLending() {
        ClusterRun run = ClusterRun.fourByTen().team("team-a", 20).team("team-b", 20);
        for (int i = 0; i < 30; i++) {
            queue(run, job("team-a", "a" + i, 1, 0));
        }
        for (int i = 0; i < 20; i++) {
            queue(run, job("team-b", "b" + i, 1, 0));
        }
        run.requeue();
        assertThat(run.held("team-a", QuotaState.IN_QUOTA)).isEqualTo(20);
        assertThat(run.held("team-b", QuotaState.IN_QUOTA)).isEqualTo(20);
        assertThat(run.held("team-a")).isEqualTo(20);
        assertThat(run.reason("team-a", "a29")).contains("has used its guarantee");
    }

    @Test
    void aTeamStopsAtItsMaximum() {
        ClusterRun run = ClusterRun.fourByTen()
                .team(new Team("team-a", 20_000, 30_000, 1, 0))
                .team("team-b", 10);
        for (int i = 0; i < 40; i++) {
            queue(run, job("team-a", "a" + i, 1, 0));
        }
        run.requeue();
        assertThat(run.held("team-a")).isEqualTo(30);
        assertThat(run.reason("team-a", "a39"))
                .isEqualTo("team-a is at its maxGpus 30 (holds 30 GPUs, this job needs 1)");
    }

    @Test
    void nonPreemptibleJobsRunOnlyWithinTheGuarantee() {
        ClusterRun run = ClusterRun.fourByTen().team("team-a", 4).team("team-b", 20);
        JobSpec notebook = new JobSpec(
                new JobId("team-a", "notebook"), new GpuRequest.WholeGpus(3), 0, 0, Set.of(), 0, false, Duration.ZERO);
        JobSpec second = new JobSpec(
                new JobId("team-a", "notebook-2"),
                new GpuRequest.WholeGpus(3),
                0,
                0,
                Set.of(),
                0,
                false,
                Duration.ZERO);
        run.deploy(notebook);
        run.deploy(second);
        assertThat(run.placement("team-a", "notebook").quotaState()).isEqualTo(QuotaState.IN_QUOTA);
        assertThat(run.isPlaced("team-a", "notebook-2")).isFalse();
        assertThat(run.reason("team-a", "notebook-2"))
                .isEqualTo("team-a's non-preemptible jobs hold 3 of its 4 guaranteed"
                        + " GPUs and this job needs 3; non-preemptible jobs run only within the guarantee (wait for the team's"
                        + " jobs to finish, or deploy it with preemptible: true to borrow idle GPUs)");
    }

    @Test
    void evictedJobsComeBackWhenCapacityFrees() {
        ClusterRun run = ClusterRun.fourByTen().team("team-a", 20).team("team-b", 20);
        for (int i = 1; i <= 8; i++) {
            run.deploy(ClusterRun.job("team-a", "a" + i, 5));
        }
        run.deploy(ClusterRun.job("team-b", "b1", 10));
        assertThat(run.held("team-a")).isEqualTo(30);
        assertThat(run.pending).hasSize(2);
        run.finish("team-b", "b1");
        run.requeue();
        assertThat(run.held("team-a")).isEqualTo(40);
        assertThat(run.pending).isEmpty();
    }
}
