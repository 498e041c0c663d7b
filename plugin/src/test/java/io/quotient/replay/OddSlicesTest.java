package io.quotient.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.IdleAction;
import io.quotient.core.model.JobKind;
import io.quotient.core.model.ModelGroup;
import io.quotient.core.model.ModelGuarantee;
import io.quotient.core.model.ModelGuarantees;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The figures on slices unlike the shipped ones: one instant, one job, jobs of every kind under every baseline. */
class OddSlicesTest {

    private static final long T0 = 1_506_816_000_000L; // 2017-10-01T00:00:00Z
    private static final long HOUR = 3_600_000;
    private static final String H100 = "H100-80GB";
    private static final String A100 = "A100-SXM4-80GB";

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

    /** A training job of whole GPUs pinned to the models. */
    private static ReplayJob pinned(String name, String team, long submitMs, long durationMs, int gpus, String model) {
        ReplayJob j = job(name, team, submitMs, durationMs, gpus);
        return new ReplayJob(
                j.name(),
                j.team(),
                j.submitMs(),
                j.durationMs(),
                new GpuRequest.WholeGpus(gpus),
                0,
                0,
                Set.of(model),
                1,
                JobKind.TRAIN,
                0,
                true,
                ReplayJob.DEFAULT_CHECKPOINT_MS,
                Duration.ZERO,
                IdleProfile.BUSY);
    }

    private static Team split(String name, String model, int gpus, int total) {
        return Team.of(name, total)
                .withModelGuarantees(new ModelGuarantees(
                        List.of(new ModelGuarantee(ModelGroup.of(model), gpus * 1000L, Team.UNLIMITED))));
    }

    @Test
    void aGuaranteeBeyondTheClusterCountsNoDeficitTheClusterCouldNotMeet() {
        // one 8-GPU node, a guaranteed 16 with four 4-GPU jobs: two run an hour, two wait. The cluster meets 8 of the
        // guarantee, as the scheduler's fair share caps it. Before, the target was min(16, demand 16): 8 GPU-hours of
        // deficit and an hour below the guarantee no scheduler could have shortened
        List<ReplayJob> jobs = List.of(
                job("a0", "a", T0, HOUR, 4),
                job("a1", "a", T0, HOUR, 4),
                job("a2", "a", T0, HOUR, 4),
                job("a3", "a", T0, HOUR, 4));
        ReplayResult r =
                Replay.run(Baselines.named("quotient"), ClusterSize.uniform(1, 8), Map.of("a", Team.of("a", 16)), jobs);

        assertThat(r.overall().guaranteeDeficitGpuHours()).isZero();
        assertThat(r.overall().timeToGuaranteeSeconds().p50()).isNaN();
    }

    @Test
    void guaranteesBeyondTheClusterAreMetInProportionToThem() {
        // 8 GPUs, a and b guaranteed 8 each: the scheduler owes each 4 when both ask for 8. fifo runs a's two 4-GPU
        // jobs for an hour while b's two wait: b is 4 short of what it is owed, not 8 (8 GPU-hours before)
        List<ReplayJob> jobs = List.of(
                job("a0", "a", T0, HOUR, 4),
                job("a1", "a", T0, HOUR, 4),
                job("b0", "b", T0 + 1000, HOUR, 4),
                job("b1", "b", T0 + 1000, HOUR, 4));
        Map<String, Team> teams = Map.of("a", Team.of("a", 8), "b", Team.of("b", 8));
        ReplayResult r = Replay.run(Baselines.named("fifo"), ClusterSize.uniform(1, 8), teams, jobs);

        assertThat(r.teams().get("b").guaranteeDeficitGpuHours()).isCloseTo(4.0 * 3599 / 3600, within(1e-9));
        assertThat(r.teams().get("a").guaranteeDeficitGpuHours()).isZero();
    }

    @Test
    void aGroupWithNoNodesOfItsModelsCountsNoDeficit() {
        // a's guarantee of 4 H100 and 4 A100 on a cluster of A100s only: its third 4-GPU job waits an hour behind two
        // running on the A100s. No H100 exists to meet the H100 half. Before, the H100 group's gap of 4 made 4
        // GPU-hours of deficit
        List<NodeSpec> nodes = ClusterSize.uniform(1, 8, NodeModels.parse(A100 + ":1"));
        Team a = Team.of("a", 8)
                .withModelGuarantees(new ModelGuarantees(List.of(
                        new ModelGuarantee(ModelGroup.of(H100), 4000, Team.UNLIMITED),
                        new ModelGuarantee(ModelGroup.of(A100), 4000, Team.UNLIMITED))));
        List<ReplayJob> jobs =
                List.of(job("a0", "a", T0, HOUR, 4), job("a1", "a", T0, HOUR, 4), job("a2", "a", T0, HOUR, 4));
        ReplayResult r = Replay.run(Baselines.named("quotient"), nodes, Map.of("a", a), jobs);

        assertThat(r.teams().get("a").guaranteeDeficitGpuHours()).isZero();
        assertThat(r.modelGroups())
                .allSatisfy(g -> assertThat(g.guaranteeDeficitGpuHours()).isZero());
    }

    @ParameterizedTest
    @ValueSource(strings = {"quotient", "fifo"})
    void jainsShareFollowsTheFairSharePerModelGroup(String policy) {
        // a guaranteed 8 H100 runs two unpinned 8-GPU jobs for 2 h, on the H100s and the A100s; b (guaranteed 0)
        // waits with a job pinned to H100. Per group the scheduler owes b nothing (the H100s are a's guarantee, b
        // cannot use the A100s), so every team entitled to something holds its share: 1. The flat division gave b
        // 4 of the cluster's idle 8, so the first two hours scored 0.5 and the mean about 0.67. Under fifo, which
        // schedules every job in one pooled team, the shares are still the trace teams' ones
        List<NodeSpec> nodes = ClusterSize.uniform(2, 8, NodeModels.parse(H100 + ":0.5," + A100 + ":0.5"));
        Map<String, Team> teams = new LinkedHashMap<>();
        teams.put("a", split("a", H100, 8, 8));
        teams.put("b", Team.of("b", 0));
        List<ReplayJob> jobs = List.of(
                job("a0", "a", T0, 2 * HOUR, 8),
                job("a1", "a", T0, 2 * HOUR, 8),
                pinned("b0", "b", T0 + 1000, HOUR, 8, H100));
        ReplayResult r = Replay.run(Baselines.named(policy), nodes, teams, jobs);

        assertThat(r.teams().get("b").queueDelaySeconds().p50()).isCloseTo(2 * 3600 - 1, within(1.0));
        assertThat(r.overall().jainFairness()).isCloseTo(1.0, within(1e-9));
    }
}
