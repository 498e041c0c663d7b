package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.placement.ClusterFittedWorkload;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.placement.WorkloadLearner;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The scheduler learns its workload from the jobs of its snapshots, each counted once. */
class ObservedJobsTest {

    private static final WorkloadLearner.Settings QUICK = new WorkloadLearner.Settings(1_000, 4, 1);

    private static QuotaScheduler learning(WorkloadLearner learner) {
        return new QuotaScheduler(
                "quotient",
                42,
                ClusterFittedWorkload.following(learner::current),
                ReclaimSettings.DEFAULTS,
                new ObservedJobs(learner));
    }

    private static JobSpec onModel(String name, int milli, String model) {
        return new JobSpec(
                new JobId("team-a", name),
                new GpuRequest.Fraction(milli, milli, 1),
                500,
                512,
                Set.of(model),
                0,
                true,
                Duration.ZERO);
    }

    @Test
    void everySubmissionCountsOnceHoweverOftenItIsDecided() {
        WorkloadLearner learner = new WorkloadLearner(TargetWorkload.typical(), QUICK);
        ClusterRun run = new ClusterRun(learning(learner), ClusterRun.nodes(2, 8)).team("team-a", 16);
        for (int i = 0; i < 3; i++) {
            run.deploy(ClusterRun.job("team-a", "w" + i, 2));
        }
        assertThat(learner.seen()).isEqualTo(3);
        assertThat(learner.learned()).isFalse();
        run.deploy(onModel("t4", 250, ClusterRun.MODEL));
        run.requeue();
        run.requeue();
        run.rebalance(0.5);
        assertThat(learner.seen()).isEqualTo(4);
        assertThat(learner.current().shapes()).hasSize(2).anySatisfy(s -> {
            assertThat(s.gpuMilli()).isEqualTo(250);
            assertThat(s.allowedModels()).containsExactly(ClusterRun.MODEL);
            assertThat(s.probability()).isEqualTo(0.25);
        });
    }

    @Test
    void afterARestartTheRunningJobsTeachItWhatTheClusterRuns() {
        ClusterRun run = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(2, 8)).team("team-a", 16);
        for (int i = 0; i < 5; i++) {
            run.deploy(ClusterRun.fraction("team-a", "f" + i, 300));
        }
        WorkloadLearner learner = new WorkloadLearner(TargetWorkload.typical(), QUICK);
        QuotaScheduler restarted = learning(learner);
        restarted.schedulePending(run.snapshot());
        assertThat(learner.seen()).isEqualTo(5);
        assertThat(learner.current().shapes())
                .singleElement()
                .satisfies(s -> assertThat(s.gpuMilli()).isEqualTo(300));
        restarted.schedulePending(run.snapshot());
        assertThat(learner.seen()).isEqualTo(5);
    }

    @Test
    void aShareInMibIsCountedInMilliOfTheGpusItCanUse() {
        WorkloadLearner learner = new WorkloadLearner(TargetWorkload.typical(), new WorkloadLearner.Settings(10, 1, 1));
        ClusterRun run = new ClusterRun(learning(learner), ClusterRun.nodes(1, 8)).team("team-a", 8);
        run.deploy(new JobSpec(
                new JobId("team-a", "mib"),
                new GpuRequest.Memory(ClusterRun.GPU_MIB / 4, ClusterRun.GPU_MIB / 4, 1),
                500,
                512,
                Set.of(),
                0,
                true,
                Duration.ZERO));
        assertThat(learner.current().shapes())
                .singleElement()
                .satisfies(s -> assertThat(s.gpuMilli()).isEqualTo(250));
    }

    @Test
    void needsALearner() {
        assertThatThrownBy(() -> new ObservedJobs(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("learner");
    }
}
