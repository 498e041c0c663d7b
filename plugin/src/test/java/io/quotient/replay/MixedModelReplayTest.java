package io.quotient.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobKind;
import io.quotient.core.model.ModelGroup;
import io.quotient.core.model.ModelGuarantee;
import io.quotient.core.model.ModelGuarantees;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The mixed-model variant drives the core's per-model quotas: node models and job pins reach the scheduler as the
 * service passes them, a guarantee split by model reclaims only its own models, and a pin is never broken.
 */
class MixedModelReplayTest {

    private static final long T0 = 1_506_816_000_000L; // 2017-10-01T00:00:00Z
    private static final long HOUR = 3_600_000;
    private static final String H100 = "H100-80GB";
    private static final String A100 = "A100-SXM4-80GB";

    private static ReplayJob job(String name, String team, long submitMs, long durationMs) {
        return ReplayJob.wholeGpus(name, team, submitMs, durationMs, 1);
    }

    /** What happened to each team's jobs, by the model of the node: starts and preemptions. */
    private record Events(List<String> started, List<String> stopped) {}

    private static Events replay(
            ReplayPolicy policy, List<NodeSpec> nodes, Map<String, Team> teams, List<ReplayJob> jobs) {
        Map<String, String> model = nodes.stream().collect(Collectors.toMap(NodeSpec::name, NodeSpec::gpuModel));
        Events events = new Events(new ArrayList<>(), new ArrayList<>());
        new ReplayEngine(nodes, teams, policy).run(jobs, new ReplayListener() {
            @Override
            public void started(JobRun run, long nowMs, boolean afterMove) {
                events.started()
                        .add(run.job().team() + "@" + model.get(run.placement().node()));
            }

            @Override
            public void stopped(JobRun run, PlacedJob from, long nowMs, boolean moved, long lost) {
                events.stopped().add(run.job().team() + "@" + model.get(from.node()));
            }
        });
        return events;
    }

    @ParameterizedTest
    @ValueSource(strings = {"quotient", "kueue-like", "kai-like"})
    void aTeamGuaranteedH100sTakesH100sBackWhileTheA100sStayWithTheirBorrower(String policy) {
        List<NodeSpec> nodes = ClusterSize.uniform(2, 4, NodeModels.parse(H100 + ":0.5," + A100 + ":0.5"));
        Map<String, Team> teams = new LinkedHashMap<>();
        teams.put(
                "owner",
                Team.of("owner", 4)
                        .withModelGuarantees(new ModelGuarantees(
                                List.of(new ModelGuarantee(ModelGroup.of(H100), 4000, Team.UNLIMITED)))));
        teams.put("borrower", Team.of("borrower", 0));
        List<ReplayJob> jobs = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            jobs.add(job("borrow-" + i, "borrower", T0, 10 * HOUR)); // the idle cluster, both models
        }
        for (int i = 0; i < 4; i++) {
            jobs.add(job("own-" + i, "owner", T0 + HOUR, HOUR)); // unpinned: charged to its H100 group
        }
        Events e = replay(Baselines.named(policy), nodes, teams, jobs);
        assertThat(e.stopped())
                .as("only borrowed H100s are taken back")
                .containsOnly("borrower@" + H100)
                .hasSize(4);
        assertThat(e.started().stream().filter(s -> s.startsWith("owner")))
                .containsExactly("owner@" + H100, "owner@" + H100, "owner@" + H100, "owner@" + H100);
    }

    @Test
    void staticCapsASplitGuaranteeInEachGroup() {
        List<NodeSpec> nodes = ClusterSize.uniform(2, 4, NodeModels.parse(H100 + ":0.5," + A100 + ":0.5"));
        Map<String, Team> teams = Map.of(
                "owner",
                Team.of("owner", 2)
                        .withModelGuarantees(new ModelGuarantees(List.of(
                                new ModelGuarantee(ModelGroup.of(H100), 2000, Team.UNLIMITED),
                                new ModelGuarantee(ModelGroup.of(A100), 0, Team.UNLIMITED)))));
        List<ReplayJob> jobs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            jobs.add(job("own-" + i, "owner", T0, HOUR));
        }
        Events e = replay(Baselines.named("static"), nodes, teams, jobs);
        // least-allocated placement would spread two jobs over both nodes; the H100 group's cap keeps them there
        assertThat(e.started().subList(0, 2)).containsExactly("owner@" + H100, "owner@" + H100);
        assertThat(e.started()).as("the A100s are capped at 0").doesNotContain("owner@" + A100);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void aPinnedJobNeverRunsOnAnotherModelUnderAnyPolicy(long seed) {
        SmallTraces.Input input = SmallTraces.generate(seed);
        List<NodeSpec> nodes = ClusterSize.uniform(
                input.nodes().size() + 1,
                SmallTraces.GPUS_PER_NODE,
                NodeModels.parse(H100 + ":0.25," + A100 + ":0.5,V100-32GB:0.25"));
        List<ReplayJob> jobs = new ModelPins(0.6, seed).pin(input.jobs(), nodes);
        Function<String, String> model =
                nodes.stream().collect(Collectors.toMap(NodeSpec::name, NodeSpec::gpuModel))::get;
        int[] pinnedStarts = {0};
        for (ReplayPolicy policy : Baselines.all()) {
            new ReplayEngine(nodes, input.teams(), policy).run(jobs, new ReplayListener() {
                @Override
                public void started(JobRun run, long nowMs, boolean afterMove) {
                    Set<String> pin = run.job().models();
                    List<String> models = run.placement().replicas().stream()
                            .map(r -> model.apply(r.node()))
                            .distinct()
                            .toList();
                    assertThat(models).as("a gang runs on one model").hasSize(1);
                    if (!pin.isEmpty()) {
                        assertThat(pin)
                                .as(policy.name() + " " + run.job().name())
                                .contains(models.get(0));
                        pinnedStarts[0]++;
                    }
                }
            });
        }
        assertThat(pinnedStarts[0]).as("some pinned job ran").isPositive();
    }

    @Test
    void theAllocationPerModelCountsEachNodesModel() {
        List<NodeSpec> nodes = ClusterSize.uniform(2, 4, NodeModels.parse(H100 + ":0.5," + A100 + ":0.5"));
        Map<String, Team> teams = Map.of("a", Team.of("a", 0));
        List<ReplayJob> jobs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            jobs.add(job("h-" + i, "a", T0, 2 * HOUR).withModels(Set.of(H100)));
        }
        jobs.add(new ReplayJob(
                "a100",
                "a",
                T0,
                HOUR,
                new GpuRequest.WholeGpus(4),
                0,
                0,
                Set.of(A100),
                1,
                JobKind.TRAIN,
                0,
                true,
                ReplayJob.DEFAULT_CHECKPOINT_MS,
                Duration.ZERO,
                IdleProfile.BUSY));
        jobs.sort(Comparator.comparingLong(ReplayJob::submitMs).thenComparing(ReplayJob::name));
        ReplayResult r = Replay.run(Baselines.named("quotient"), nodes, teams, jobs);
        Map<String, ModelUsage> byModel =
                r.models().stream().collect(Collectors.toMap(ModelUsage::model, Function.identity()));
        // over the 2 hours: H100 half busy throughout, A100 full for the first hour
        assertThat(byModel.get(H100).allocationPct()).isEqualTo(50.0);
        assertThat(byModel.get(A100).allocationPct()).isEqualTo(50.0);
        assertThat(byModel.get(H100).gpuHoursByTeam()).isEqualTo(Map.of("a", 4.0));
        assertThat(byModel.get(A100).gpuHoursByTeam()).isEqualTo(Map.of("a", 4.0));
    }

    @Test
    void timeToGuaranteeIsMeasuredPerModelGroup() {
        List<NodeSpec> nodes = ClusterSize.uniform(2, 4, NodeModels.parse(H100 + ":0.5," + A100 + ":0.5"));
        Map<String, Team> teams = new LinkedHashMap<>();
        teams.put(
                "owner",
                Team.of("owner", 4)
                        .withModelGuarantees(new ModelGuarantees(List.of(
                                new ModelGuarantee(ModelGroup.of(H100), 4000, Team.UNLIMITED),
                                new ModelGuarantee(ModelGroup.of(A100), 0, Team.UNLIMITED)))));
        teams.put("borrower", Team.of("borrower", 0));
        List<ReplayJob> jobs = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            jobs.add(job("borrow-" + i, "borrower", T0, 10 * HOUR));
        }
        for (int i = 0; i < 4; i++) {
            jobs.add(job("own-" + i, "owner", T0 + HOUR, HOUR).withModels(Set.of(H100)));
        }
        Map<String, GroupGuarantee> reclaiming = byGroup(Replay.run(Baselines.named("quotient"), nodes, teams, jobs));
        assertThat(reclaiming.get(H100).guaranteeDeficitGpuHours())
                .as("the H100s come back in the decision of the submission")
                .isZero();
        Map<String, GroupGuarantee> lending = byGroup(Replay.run(Baselines.named("borrow"), nodes, teams, jobs));
        assertThat(lending.get(H100).timeToGuaranteeSeconds().p99())
                .as("never taken back: 9 hours until the borrowers finish")
                .isEqualTo(9 * 3600.0);
        assertThat(lending.get(H100).guaranteeDeficitGpuHours()).isEqualTo(36.0);
        assertThat(lending.get(A100).guaranteeDeficitGpuHours())
                .as("guaranteed nothing there")
                .isZero();
    }

    /**
     * A team guaranteed 4 H100s and 4 A100s holds 2 of each; the borrower has the rest and keeps it. An unpinned job
     * waiting for 4 GPUs fits the team's gap of 4 in total, but neither group's gap of 2: no group's guarantee is
     * short of anything it asks, so the team is at its target. One for 2 GPUs fits either group's gap: short.
     */
    @ParameterizedTest
    @ValueSource(ints = {4, 2})
    void aSplitTeamIsShortOnlyOfWhatFitsTheGapOfAGroupItMayRunIn(int gpus) {
        List<NodeSpec> nodes = ClusterSize.uniform(2, 4, NodeModels.parse(H100 + ":0.5," + A100 + ":0.5"));
        Map<String, Team> teams = new LinkedHashMap<>();
        teams.put(
                "split",
                Team.of("split", 8)
                        .withModelGuarantees(new ModelGuarantees(List.of(
                                new ModelGuarantee(ModelGroup.of(H100), 4000, Team.UNLIMITED),
                                new ModelGuarantee(ModelGroup.of(A100), 4000, Team.UNLIMITED)))));
        teams.put("borrower", Team.of("borrower", 0));
        List<ReplayJob> jobs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            jobs.add(job("h-" + i, "split", T0, 10 * HOUR).withModels(Set.of(H100)));
            jobs.add(job("a-" + i, "split", T0, 10 * HOUR).withModels(Set.of(A100)));
        }
        for (int i = 0; i < 4; i++) {
            jobs.add(job("borrow-" + i, "borrower", T0 + 1, 10 * HOUR));
        }
        jobs.add(ReplayJob.wholeGpus("wide", "split", T0 + HOUR, HOUR, gpus));
        Metrics split = Replay.run(Baselines.named("borrow"), nodes, teams, jobs)
                .teams()
                .get("split");
        if (gpus == 4) {
            // (seconds at the start, while the team's own first jobs wait for the pass that places them)
            assertThat(split.timeToGuaranteeSeconds().p99())
                    .as("4 GPUs fit no group's gap of 2")
                    .isLessThan(60.0);
            assertThat(split.guaranteeDeficitGpuHours()).isLessThan(0.1);
        } else {
            assertThat(split.guaranteeDeficitGpuHours())
                    .as("2 GPUs for the 9 hours the borrower keeps the GPUs")
                    .isCloseTo(18.0, org.assertj.core.data.Offset.offset(0.1));
            assertThat(split.timeToGuaranteeSeconds().p99()).isEqualTo(9 * 3600.0);
        }
    }

    /**
     * A team guaranteed 2 H100s and 2 A100s runs 2 H100s and 2 V100s (a model outside its groups: borrowed) and waits
     * for an A100: it holds 4, its whole guarantee, but 2 of them outside its guarantee, and its A100 group is short.
     */
    @Test
    void whatASplitTeamRunsOutsideItsGroupsDoesNotMeetItsGuarantee() {
        String v100 = "V100-32GB";
        List<NodeSpec> nodes =
                ClusterSize.uniform(3, 2, NodeModels.parse(H100 + ":0.34," + A100 + ":0.33," + v100 + ":0.33"));
        Map<String, Team> teams = new LinkedHashMap<>();
        teams.put(
                "split",
                Team.of("split", 4)
                        .withModelGuarantees(new ModelGuarantees(List.of(
                                new ModelGuarantee(ModelGroup.of(H100), 2000, Team.UNLIMITED),
                                new ModelGuarantee(ModelGroup.of(A100), 2000, Team.UNLIMITED)))));
        teams.put("borrower", Team.of("borrower", 0));
        List<ReplayJob> jobs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            jobs.add(job("h-" + i, "split", T0, 10 * HOUR).withModels(Set.of(H100)));
            jobs.add(job("v-" + i, "split", T0, 10 * HOUR).withModels(Set.of(v100)));
            jobs.add(job("borrow-" + i, "borrower", T0 + 1, 10 * HOUR).withModels(Set.of(A100)));
        }
        jobs.add(job("late", "split", T0 + HOUR, HOUR).withModels(Set.of(A100)));
        Metrics split = Replay.run(Baselines.named("borrow"), nodes, teams, jobs)
                .teams()
                .get("split");
        assertThat(split.guaranteeDeficitGpuHours())
                .as("1 A100 for the 9 hours the borrower keeps them")
                .isCloseTo(9.0, org.assertj.core.data.Offset.offset(0.1));
    }

    /**
     * A team guaranteed 2 H100s and 2 A100s borrows 2 more H100s and waits for an A100: it holds its whole 4, but its
     * A100 guarantee is short; what it borrows on H100s fills no A100 gap.
     */
    @Test
    void aSplitTeamBorrowingInOneGroupIsShortInAnother() {
        List<NodeSpec> nodes = ClusterSize.uniform(4, 2, NodeModels.parse(H100 + ":0.5," + A100 + ":0.5"));
        Map<String, Team> teams = new LinkedHashMap<>();
        teams.put(
                "split",
                Team.of("split", 4)
                        .withModelGuarantees(new ModelGuarantees(List.of(
                                new ModelGuarantee(ModelGroup.of(H100), 2000, Team.UNLIMITED),
                                new ModelGuarantee(ModelGroup.of(A100), 2000, Team.UNLIMITED)))));
        teams.put("borrower", Team.of("borrower", 0));
        List<ReplayJob> jobs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            jobs.add(job("h-" + i, "split", T0, 10 * HOUR).withModels(Set.of(H100)));
            jobs.add(job("borrow-" + i, "borrower", T0 + 1, 10 * HOUR).withModels(Set.of(A100)));
        }
        jobs.add(job("late", "split", T0 + HOUR, HOUR).withModels(Set.of(A100)));
        Metrics split = Replay.run(Baselines.named("borrow"), nodes, teams, jobs)
                .teams()
                .get("split");
        assertThat(split.guaranteeDeficitGpuHours())
                .as("1 A100 for the 9 hours the borrower keeps them")
                .isCloseTo(9.0, org.assertj.core.data.Offset.offset(0.1));
    }

    private static Map<String, GroupGuarantee> byGroup(ReplayResult r) {
        return r.modelGroups().stream().collect(Collectors.toMap(GroupGuarantee::group, Function.identity()));
    }
}
