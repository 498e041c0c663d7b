package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The preemption planner's rules (issue 2), each on a hand-built cluster so the victims are known. */
class PreemptionRulesTest {

    private final ClusterRun run = ClusterRun.fourByTen().team("team-a", 20).team("team-b", 20);

    /** Puts a job on the given GPUs of a node, as observed. */
    private static PlacedJob put(
            ClusterRun run,
            String team,
            String name,
            String node,
            int firstGpu,
            int count,
            QuotaState state,
            int priority,
            Instant startedAt,
            Duration minRuntime) {
        return put(run, team, name, node, firstGpu, count, state, priority, startedAt, minRuntime, true);
    }

    private static PlacedJob put(
            ClusterRun run,
            String team,
            String name,
            String node,
            int firstGpu,
            int count,
            QuotaState state,
            int priority,
            Instant startedAt,
            Duration minRuntime,
            boolean preemptible) {
        JobSpec spec = new JobSpec(
                new JobId(team, name),
                new GpuRequest.WholeGpus(count),
                1000,
                1024,
                Set.of(),
                priority,
                preemptible,
                minRuntime);
        PlacedJob job = new PlacedJob(
                spec, node, IntStream.range(firstGpu, firstGpu + count).boxed().toList(), 1000, state, startedAt);
        run.placed.put(job.id(), job);
        return job;
    }

    private PlacedJob put(String team, String name, String node, int firstGpu, int count, QuotaState state) {
        return put(run, team, name, node, firstGpu, count, state, 0, run.now.minus(Duration.ofHours(1)), Duration.ZERO);
    }

    /** Team A: nodes 1 and 2 full in quota (20), node 3 and 4 full of borrowed 2-GPU jobs (20). */
    private void teamAHoldsEverything() {
        for (int n = 1; n <= 2; n++) {
            put("team-a", "in-" + n, "node-" + n, 0, 10, QuotaState.IN_QUOTA);
        }
        for (int n = 3; n <= 4; n++) {
            for (int g = 0; g < 10; g += 2) {
                put("team-a", "over-" + n + "-" + g, "node-" + n, g, 2, QuotaState.OVER_QUOTA);
            }
        }
    }

    @Test
    void evictsTheSmallestSetThatMakesRoom() {
        teamAHoldsEverything();
        Plan plan = run.deploy(ClusterRun.job("team-b", "b1", 4));
        assertThat(plan.actionsOf(PlanAction.Evict.class)).hasSize(2);
        PlacedJob placed = run.placement("team-b", "b1");
        assertThat(plan.actionsOf(PlanAction.Evict.class))
                .allSatisfy(e -> assertThat(e.job().name())
                        .startsWith("over-" + placed.node().substring("node-".length())));
        assertThat(plan.actionsOf(PlanAction.Evict.class))
                .extracting(PlanAction.Evict::reason)
                .containsOnly(
                        "Preempted by team-b reclaiming its guarantee for team-b/b1; this job ran on borrowed GPUs (team-a held"
                                + " 40 GPUs with a guarantee of 20) and is re-queued");
    }

    @Test
    void prefersOneLargeVictimToSeveralSmallOnes() {
        for (int n = 1; n <= 2; n++) {
            put("team-a", "in-" + n, "node-" + n, 0, 10, QuotaState.IN_QUOTA);
        }
        put("team-a", "small-1", "node-3", 0, 2, QuotaState.OVER_QUOTA);
        put("team-a", "small-2", "node-3", 2, 2, QuotaState.OVER_QUOTA);
        put("team-a", "in-3", "node-3", 4, 6, QuotaState.OVER_QUOTA);
        put("team-a", "large", "node-4", 0, 4, QuotaState.OVER_QUOTA);
        put("team-a", "rest-4", "node-4", 4, 6, QuotaState.OVER_QUOTA);
        Plan plan = run.deploy(ClusterRun.job("team-b", "b1", 4));
        assertThat(plan.actionsOf(PlanAction.Evict.class))
                .extracting(e -> e.job().name())
                .containsExactly("large");
    }

    @Test
    void whenNoPlanKeepsTheVictimAtItsGuaranteeItMayEndLessThanOneOfItsJobsBelowIt() {
        // the README's walkthrough: team-a holds 27 of 20 in 3-GPU jobs, team-b 8 of 20 and wants a whole node of 8;
        // only emptying gpu-node-1 of three of team-a's jobs makes room, leaving team-a at 18 (less than one job
        // below its guarantee, and closer to it than team-b was)
        for (int j = 0; j < 3; j++) {
            put("team-a", "a-" + (j + 1), "node-3", 3 * j, 3, QuotaState.IN_QUOTA);
            put("team-a", "a-" + (j + 4), "node-2", 3 * j, 3, QuotaState.IN_QUOTA);
            put("team-a", "a-" + (j + 7), "node-1", 3 * j, 3, QuotaState.OVER_QUOTA);
        }
        put("team-b", "b-big", "node-4", 0, 8, QuotaState.IN_QUOTA);

        Plan plan = run.deploy(ClusterRun.job("team-b", "b-train", 8));

        assertThat(plan.actionsOf(PlanAction.Evict.class))
                .extracting(e -> e.job().name())
                .containsExactlyInAnyOrder("a-7", "a-8", "a-9");
        assertThat(plan.actionsOf(PlanAction.Evict.class))
                .allSatisfy(
                        e -> assertThat(e.reason())
                                .startsWith(
                                        "Preempted by team-b reclaiming its guarantee for team-b/b-train (team-b held 8 of 20"));
        assertThat(run.isPlaced("team-b", "b-train")).isTrue();
    }

    @Test
    void neverEvictsAnotherTeamsInQuotaJob() {
        ClusterRun small = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(2, 10))
                .team("team-a", 15)
                .team("team-b", 15);
        put(small, "team-a", "a1", "node-1", 0, 10, QuotaState.IN_QUOTA, 0, small.now.minusSeconds(60), Duration.ZERO);
        put(small, "team-a", "a2", "node-2", 0, 5, QuotaState.IN_QUOTA, 0, small.now.minusSeconds(60), Duration.ZERO);
        Plan plan = small.deploy(ClusterRun.job("team-b", "b1", 10));
        assertThat(plan.actionsOf(PlanAction.Evict.class)).isEmpty();
        assertThat(plan.actionsOf(PlanAction.KeepPending.class))
                .singleElement()
                .satisfies(k -> assertThat(k.reason()).contains("no borrowed GPUs could be taken back"));
    }

    @Test
    void aRecordedOverQuotaJobThatNowFitsItsTeamsGuaranteeIsProtected() {
        // team A's in-quota work finished: its "borrowed" job is inside the guarantee now
        ClusterRun small = new ClusterRun(QuotaScheduler.withDefaults(), ClusterRun.nodes(1, 10))
                .team("team-a", 5)
                .team("team-b", 5);
        put(small, "team-a", "a1", "node-1", 0, 5, QuotaState.OVER_QUOTA, 0, small.now.minusSeconds(60), Duration.ZERO);
        put(small, "team-b", "b0", "node-1", 5, 5, QuotaState.IN_QUOTA, 0, small.now.minusSeconds(60), Duration.ZERO);
        Plan plan = small.deploy(ClusterRun.job("team-b", "b1", 1));
        assertThat(plan.actionsOf(PlanAction.Evict.class)).isEmpty();
        assertThat(small.isPlaced("team-a", "a1")).isTrue();
    }

    @Test
    void doesNotEvictWhenEvictingEveryAllowedCandidateWouldStillNotMakeRoom() {
        // team A may lose only 5 GPUs (40 held, 35 guaranteed): no node can be emptied for a 10-GPU job; emptying
        // one would leave it two whole jobs (10) below its guarantee, more than the within-one-job rule allows
        ClusterRun run = ClusterRun.fourByTen().team("team-a", 35).team("team-b", 10);
        for (int n = 1; n <= 4; n++) {
            put(
                    run,
                    "team-a",
                    "in-" + n,
                    "node-" + n,
                    0,
                    5,
                    QuotaState.IN_QUOTA,
                    0,
                    run.now.minusSeconds(60),
                    Duration.ZERO);
            put(
                    run,
                    "team-a",
                    "over-" + n,
                    "node-" + n,
                    5,
                    5,
                    QuotaState.OVER_QUOTA,
                    0,
                    run.now.minusSeconds(60),
                    Duration.ZERO);
        }
        Plan plan = run.deploy(ClusterRun.job("team-b", "whole-node", 10));
        assertThat(plan.actionsOf(PlanAction.Evict.class)).isEmpty();
        assertThat(run.placed).hasSize(8);
        assertThat(run.reason("team-b", "whole-node"))
                .startsWith("every GPU is in use; team-b is within its guarantee");
    }

    /** Issue 31: a minimum runtime of 2^63-1 seconds overflowed the instant arithmetic, and every reclaim failed. */
    @Test
    void theLongestMinimumRuntimeSaturatesInsteadOfFailingTheReclaim() {
        for (int n = 1; n <= 2; n++) {
            put(
                    run,
                    "team-a",
                    "in-" + n,
                    "node-" + n,
                    0,
                    10,
                    QuotaState.IN_QUOTA,
                    0,
                    run.now.minusSeconds(600),
                    Duration.ZERO,
                    false);
        }
        for (int n = 3; n <= 4; n++) {
            put(
                    run,
                    "team-a",
                    "forever-" + n,
                    "node-" + n,
                    0,
                    10,
                    QuotaState.OVER_QUOTA,
                    0,
                    run.now.minusSeconds(600),
                    Duration.ofSeconds(Long.MAX_VALUE));
        }
        assertThat(run.placed.get(new JobId("team-a", "forever-3")).protectedUntil())
                .isEqualTo(Instant.MAX);

        Plan plan = run.deploy(ClusterRun.job("team-b", "b1", 10));
        assertThat(plan.actionsOf(PlanAction.Evict.class)).isEmpty();
        assertThat(run.reason("team-b", "b1")).contains("minimum runtime");
        run.advance(Duration.ofDays(365));
        assertThat(run.requeue().actionsOf(PlanAction.Evict.class)).isEmpty();
    }

    @Test
    void neverEvictsAJobInsideItsMinimumRuntimeAndDoesOnceItHasPassed() {
        for (int n = 1; n <= 2; n++) {
            put(
                    run,
                    "team-a",
                    "in-" + n,
                    "node-" + n,
                    0,
                    10,
                    QuotaState.IN_QUOTA,
                    0,
                    run.now.minusSeconds(600),
                    Duration.ZERO,
                    false);
        }
        for (int n = 3; n <= 4; n++) {
            put(
                    run,
                    "team-a",
                    "young-" + n,
                    "node-" + n,
                    0,
                    10,
                    QuotaState.OVER_QUOTA,
                    0,
                    run.now.minusSeconds(600),
                    Duration.ofHours(1));
        }
        Plan plan = run.deploy(ClusterRun.job("team-b", "b1", 10));
        assertThat(plan.actionsOf(PlanAction.Evict.class)).isEmpty();
        assertThat(run.reason("team-b", "b1"))
                .endsWith("borrowed jobs inside their minimum runtime may be preempted" + " from "
                        + run.now.plus(Duration.ofMinutes(50)));

        run.advance(Duration.ofMinutes(50));
        Plan later = run.requeue();
        assertThat(later.actionsOf(PlanAction.Evict.class)).hasSize(1);
        assertThat(run.isPlaced("team-b", "b1")).isTrue();
    }

    @Test
    void teamsFurthestAboveTheirFairShareLoseFirst() {
        ClusterRun three =
                ClusterRun.fourByTen().team("team-a", 10).team("team-b", 10).team("team-c", 20);
        // A holds 24 (14 borrowed), B holds 16 (6 borrowed): A is further above its fair share
        int job = 0;
        for (int n = 1; n <= 4; n++) {
            for (int g = 0; g < 10; g += 2, job++) {
                String team = job < 12 ? "team-a" : "team-b";
                QuotaState state = (job < 5 || (job >= 12 && job < 17)) ? QuotaState.IN_QUOTA : QuotaState.OVER_QUOTA;
                put(three, team, "j" + job, "node-" + n, g, 2, state, 0, three.now.minusSeconds(60), Duration.ZERO);
            }
        }
        Plan plan = three.deploy(ClusterRun.job("team-c", "c1", 2));
        assertThat(plan.actionsOf(PlanAction.Evict.class))
                .singleElement()
                .satisfies(e -> assertThat(e.job().team()).isEqualTo("team-a"));
    }

    @Test
    void withinATeamTheLowestPriorityLosesFirst() {
        for (int n = 1; n <= 2; n++) {
            put("team-a", "in-" + n, "node-" + n, 0, 10, QuotaState.IN_QUOTA);
        }
        Instant started = run.now.minusSeconds(60);
        put(run, "team-a", "important", "node-3", 0, 10, QuotaState.OVER_QUOTA, 5, started, Duration.ZERO);
        put(run, "team-a", "casual", "node-4", 0, 10, QuotaState.OVER_QUOTA, 0, started, Duration.ZERO);
        Plan plan = run.deploy(ClusterRun.job("team-b", "b1", 10));
        assertThat(plan.actionsOf(PlanAction.Evict.class))
                .extracting(e -> e.job().name())
                .containsExactly("casual");
    }

    @Test
    void amongEqualsTheJobThatLosesTheLeastWorkGoesFirst() {
        for (int n = 1; n <= 2; n++) {
            put("team-a", "in-" + n, "node-" + n, 0, 10, QuotaState.IN_QUOTA);
        }
        put(
                run,
                "team-a",
                "old",
                "node-3",
                0,
                10,
                QuotaState.OVER_QUOTA,
                0,
                run.now.minus(Duration.ofHours(5)),
                Duration.ZERO);
        put(
                run,
                "team-a",
                "new",
                "node-4",
                0,
                10,
                QuotaState.OVER_QUOTA,
                0,
                run.now.minus(Duration.ofMinutes(5)),
                Duration.ZERO);
        Plan plan = run.deploy(ClusterRun.job("team-b", "b1", 10));
        assertThat(plan.actionsOf(PlanAction.Evict.class))
                .extracting(e -> e.job().name())
                .containsExactly("new");
        assertThat(plan.actions()).last().isInstanceOf(PlanAction.Place.class);
    }

    @Test
    void overQuotaRequestsNeverPreempt() {
        teamAHoldsEverything();
        Plan plan = run.deploy(ClusterRun.job("team-a", "more", 2));
        assertThat(plan.actionsOf(PlanAction.Evict.class)).isEmpty();
        assertThat(run.reason("team-a", "more"))
                .startsWith("team-a has used its guarantee (40 of 20 GPUs)" + " and borrows only idle GPUs");
    }

    @Test
    void aTeamsOwnBorrowedJobMakesRoomForItsInQuotaJob() {
        ClusterRun one = new ClusterRun(
                        QuotaScheduler.withDefaults(),
                        List.of(new NodeSpec("node-1", 128_000, 1_048_576, 10, ClusterRun.MODEL, ClusterRun.GPU_MIB)))
                .team("team-a", 6)
                .team("team-b", 4);
        put(one, "team-a", "a-in", "node-1", 0, 4, QuotaState.IN_QUOTA, 0, one.now.minusSeconds(60), Duration.ZERO);
        put(one, "team-a", "a-over", "node-1", 4, 6, QuotaState.OVER_QUOTA, 0, one.now.minusSeconds(60), Duration.ZERO);
        // a notebook runs only within the guarantee; the team's own preemptible jobs beyond it make way
        Plan plan = one.deploy(new JobSpec(
                new JobId("team-a", "a-next"),
                new GpuRequest.WholeGpus(2),
                1000,
                1024,
                Set.of(),
                0,
                false,
                Duration.ZERO));
        assertThat(plan.actionsOf(PlanAction.Evict.class)).singleElement().satisfies(e -> {
            assertThat(e.job().name()).isEqualTo("a-over");
            assertThat(e.reason()).startsWith("Preempted by team-a/a-next, which runs within team-a's guarantee");
        });
        assertThat(one.placement("team-a", "a-next").quotaState()).isEqualTo(QuotaState.IN_QUOTA);
    }
}
