package io.quotient.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quotient.core.model.IdleAction;
import io.quotient.core.model.JobKind;
import io.quotient.core.model.Team;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The figures on slices unlike the shipped ones: one instant, one job, jobs of every kind under every baseline. */
class OddSlicesTest {

    private static final long T0 = 1_506_816_000_000L; // 2017-10-01T00:00:00Z
    private static final long HOUR = 3_600_000;

    private static ReplayJob job(String name, String team, long submitMs, long durationMs, int gpus) {
        return TrainingJobs.wholeGpus(name, team, submitMs, durationMs, gpus, ReplayJob.DEFAULT_CHECKPOINT_MS);
    }

    @Test
    void fifoNeverPreemptsARunningJobForANonPreemptibleOne() {
        // one 4-GPU node: a's training job runs; b's notebook (not preemptible) arrives 10 s later. The kube-scheduler
        // without quotas queues it: it starts when the training job ends. Before, the pooled team's non-preemptible
        // job displaced the pool's preemptible one (1 preemption, the training job's 10 s lost)
        List<ReplayJob> jobs =
                List.of(job("train", "a", T0, HOUR, 4), TrainingJobs.notebook("nb", "b", T0 + 10_000, HOUR, 4));
        Map<String, Team> teams = Map.of("a", Team.of("a", 0), "b", Team.of("b", 0));
        ReplayResult r = Replay.run(Baselines.named("fifo"), ClusterSize.uniform(1, 4), teams, jobs);

        assertThat(r.overall().preemptions()).isZero();
        assertThat(r.overall().lostGpuHours()).isZero();
        assertThat(r.teams().get("a").jctSeconds().p50()).isEqualTo(3600.0);
        assertThat(r.teams().get("b").queueDelaySeconds().p50()).isBetween(3590.0, 3600.0);
    }

    @Test
    void aSliceSubmittedAtOneInstantIsSizedByItsLoad() {
        // every job at one instant: the span from first to last submission is empty; its limit is the GPUs busy at that
        // instant had every job started (a 4- and a 12-GPU job: 16; the zero-length job adds nothing). Before, the
        // trace offered 0 GPUs and every --load gave one node
        List<ReplayJob> jobs =
                List.of(job("a", "t", T0, HOUR, 4), job("b", "t", T0, 2 * HOUR, 12), job("none", "t", T0, 0, 8));
        assertThat(ClusterSize.meanOfferedGpus(jobs, ClusterSize.uniform(1, 8))).isEqualTo(16.0);
        assertThat(ClusterSize.forLoad(jobs, 0.5, 8)).hasSize(4);
        assertThat(ClusterSize.forLoad(jobs, 2.0, 8)).hasSize(1);
        assertThat(ClusterSize.forLoad(List.of(job("one", "t", T0, HOUR, 16)), 0.25, 8))
                .hasSize(8);
    }

    @Test
    void theHourlyMeanWeighsEachHourByTheTimeTheReplayCoversOfIt() {
        // a slice starting at 00:59:59: one second with a holding 4 GPUs of its share of 2 and b none of its 2
        // (index 0.5), then a full hour of even shares (1). Before, the second weighed as much as the hour: 0.75
        HourlyFairness f = new HourlyFairness(List.of("a", "b"));
        f.integrate(T0 + HOUR - 1000, T0 + HOUR, new long[] {4000, 0}, new long[] {2000, 2000});
        f.integrate(T0 + HOUR, T0 + 2 * HOUR, new long[] {2000, 2000}, new long[] {2000, 2000});
        f.end();
        assertThat(f.meanIndex()).isCloseTo((0.5 * 1 + 3600) / 3601, within(1e-12));
    }

    @Test
    void aJobStoppedIdleNoLongerCountsOnItsModel() {
        // lab's notebook is idle from 10 minutes and stopped at 40 while vision's train-1 waits (IdleReplayTest's
        // case): lab held one GPU for 40 minutes. Before, the model's allocation kept the stopped notebook's GPU for
        // the rest of the replay (10 GPU-hours of lab's on the model, to the end at 10 h, against 0.67 delivered)
        Map<String, Team> teams = IdleReplayTest.teams(IdleAction.STOP);
        List<ReplayJob> jobs = List.of(
                IdleReplayTest.job("nb", "lab", 0, 240, JobKind.NOTEBOOK, "busy:10m|idle:4h"),
                IdleReplayTest.job("train-0", "vision", 0, 600, JobKind.TRAIN, ""),
                IdleReplayTest.job("train-1", "vision", 20, 60, JobKind.TRAIN, ""));
        ReplayResult r = Replay.run(Baselines.named("quotient"), ClusterSize.uniform(1, 2), teams, jobs);

        assertThat(r.overall().idle().stops()).isEqualTo(1);
        ModelUsage gpu = r.models().get(0);
        assertThat(gpu.gpuHoursByTeam().get("lab")).isCloseTo(40 / 60.0, within(1e-9));
        assertThat(gpu.gpuHoursByTeam().values().stream()
                        .mapToDouble(Double::doubleValue)
                        .sum())
                .isCloseTo(r.overall().deliveredGpuHours(), within(1e-9));
    }
}
