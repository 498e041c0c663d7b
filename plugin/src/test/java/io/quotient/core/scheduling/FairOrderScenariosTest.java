package io.quotient.core.scheduling;

import static io.quotient.core.scheduling.KaiScenarios.evictions;
import static io.quotient.core.scheduling.KaiScenarios.state;
import static io.quotient.core.scheduling.Scenario.gpus;
import static io.quotient.core.scheduling.Scenario.job;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PendingJob;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.Team;
import io.quotient.core.model.WithinTeamPreemption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Who goes first, and who gives back, across teams (issue 35): (a) the order in which waiting jobs of several teams
 * borrow idle GPUs (fair-share position, then job priority, then arrival, as Kueue's fair sharing orders admissions);
 * (b) which borrowed jobs a guarantee reclaim takes (a lower-priority team's first, then the team furthest above its
 * fair share, as KAI-Scheduler reclaims); (c) the hysteresis of fair-share reclaim (no victim above its share by less
 * than it, and no plan that only passes the largest shortfall from one team to another); (d) the order in which jobs
 * within their team's guarantee are decided when the guarantees exceed the cluster (the team holding the least of its
 * guarantee first, as KAI-Scheduler orders queues). Each case failed before
 * the rule it names was mended.
 */
class FairOrderScenariosTest {

    private static final int BIG_WEIGHT = 123_456_789;

    /** Queues the job as the re-queue finds it (not decided on arrival), a second after the previous one. */
    private static void queued(Scenario s, JobSpec job) {
        s.run.pending.put(job.id(), new PendingJob(job, s.run.now));
        s.run.advance(Duration.ofSeconds(1));
    }

    /** A whole-GPU job started {@code minutesAgo} minutes ago on the given GPUs of a node. */
    private static void runningSince(Scenario s, String team, String name, int minutesAgo, String node, int... gpus) {
        KaiScenarios.put(
                s,
                new PlacedJob(
                        job(team, name, gpus.length, 0),
                        node,
                        Arrays.stream(gpus).boxed().toList(),
                        1000,
                        QuotaState.OVER_QUOTA,
                        s.run.now.minus(Duration.ofMinutes(minutesAgo))));
    }

    @Test
    void ofTwoTeamsThatBorrowNothingTheHigherPriorityJobGoesFirst() {
        // (a) one idle GPU; a and b (no guarantee, weight 1) borrow nothing; a's job (priority 0) arrived before
        // b's (priority 5). Before: teams equally placed were ordered by name, so a's job ran.
        Scenario s = Scenario.nodes(1).team("a", 0, 1).team("b", 0, 1);
        queued(s, job("a", "a1", 1, 0));
        queued(s, job("b", "b1", 1, 5));
        s.run.requeue();
        assertThat(s.running()).as(() -> state(s)).containsExactly("b/b1");
        assertThat(s.pending()).containsExactly("a/a1");
    }

    @Test
    void ofTwoWeightZeroTeamsTheOneBorrowingLessIsServed() {
        // (a) one idle GPU of four; a (weight 0) borrows 2, b (weight 0) borrows 1; a's job arrived first. Before:
        // borrowed / 0 made both equal and a, the one borrowing more, was served.
        Scenario s = Scenario.nodes(4).team("a", 0, 0).team("b", 0, 0);
        s.running("a", "a1", "node-0", 0, 0).running("a", "a2", "node-0", 0, 1).running("b", "b1", "node-0", 0, 2);
        queued(s, job("a", "a3", 1, 0));
        queued(s, job("b", "b2", 1, 0));
        s.run.requeue();
        assertThat(s.running()).as(() -> state(s)).contains("b/b2");
        assertThat(s.pending()).containsExactly("a/a3");
    }

    @Test
    void theTeamFurtherBelowItsEntitlementGoesBeforeAHigherPriorityJob() {
        // (a) fair-share position comes before job priority: a borrows 2, b 1 (weight 1 each); a's job has
        // priority 10 (a does not preempt its own jobs), b's 0; the one idle GPU goes to b.
        Scenario s = Scenario.nodes(4)
                .team(new Team("a", 0, Team.UNLIMITED, 1, 0).withPreemptWithinTeam(WithinTeamPreemption.NEVER))
                .team("b", 0, 1);
        s.running("a", "a1", "node-0", 0, 0).running("a", "a2", "node-0", 0, 1).running("b", "b1", "node-0", 0, 2);
        queued(s, job("a", "a3", 1, 10));
        queued(s, job("b", "b2", 1, 0));
        s.run.requeue();
        assertThat(s.running()).as(() -> state(s)).contains("b/b2");
        assertThat(s.pending()).containsExactly("a/a3");
    }

    @Test
    void aWeightZeroTeamBorrowsOnlyAfterTeamsWithWeight() {
        // (a) two idle GPUs; z (weight 0) borrows nothing, w (weight 1) already borrows 1: both idle GPUs go to
        // w's jobs before z's, whatever their priorities and arrival.
        Scenario s = Scenario.nodes(3).team("w", 0, 1).team("z", 0, 0);
        s.running("w", "w0", "node-0", 0, 0);
        queued(s, job("z", "z1", 1, 9));
        queued(s, job("w", "w1", 1, 0));
        queued(s, job("w", "w2", 1, 0));
        s.run.requeue();
        assertThat(s.running()).as(() -> state(s)).contains("w/w1", "w/w2");
        assertThat(s.pending()).containsExactly("z/z1");
    }

    @Test
    void aGuaranteeReclaimTakesALowerPriorityTeamsBorrowedJobFirst() {
        // (b) 4 GPUs; c (guarantee 2) wants 1; hi (team priority 1, no guarantee) borrows 1 GPU, at its fair share,
        // started 10 minutes ago; lo (priority 0) borrows 3, an hour old. Fair shares: c 1, hi 1, lo 2. Before: the
        // least work lost decided, and hi's newer job was evicted.
        Scenario s = Scenario.nodes(4)
                .team("c", 2, 1)
                .team(new Team("hi", 0, Team.UNLIMITED, 1, 1))
                .team(new Team("lo", 0, Team.UNLIMITED, 1, 0));
        runningSince(s, "hi", "h1", 10, "node-0", 0);
        runningSince(s, "lo", "l1", 60, "node-0", 1);
        runningSince(s, "lo", "l2", 60, "node-0", 2);
        runningSince(s, "lo", "l3", 60, "node-0", 3);
        s.deploy(job("c", "c1", 1, 0));
        List<String> evicted =
                evictions(s).stream().map(e -> e.job().toString()).toList();
        assertThat(evicted).as(() -> state(s)).hasSize(1).allMatch(j -> j.startsWith("lo/"));
        assertThat(s.running()).contains("c/c1", "hi/h1");
    }

    @Test
    void aGuaranteeReclaimTakesFromTheTeamFurthestAboveItsFairShare() {
        // (b) 4 GPUs; c (guarantee 2) wants 1; x and y (same priority, no guarantee) borrow 3 (an hour old) and 1
        // (10 minutes old). Fair shares: c 1, x 2, y 1: x is 1 above, y at its share. Before: y's newer job went.
        Scenario s = Scenario.nodes(4).team("c", 2, 1).team("x", 0, 1).team("y", 0, 1);
        runningSince(s, "y", "y1", 10, "node-0", 0);
        runningSince(s, "x", "x1", 60, "node-0", 1);
        runningSince(s, "x", "x2", 60, "node-0", 2);
        runningSince(s, "x", "x3", 60, "node-0", 3);
        s.deploy(job("c", "c1", 1, 0));
        List<String> evicted =
                evictions(s).stream().map(e -> e.job().toString()).toList();
        assertThat(evicted).as(() -> state(s)).hasSize(1).allMatch(j -> j.startsWith("x/"));
        assertThat(s.running()).contains("c/c1", "y/y1");
    }

    @Test
    void aTeamAboveItsShareOnlyByRoundingIsNoVictim() {
        // (c) 2 nodes x 4 GPUs; c has weight 2 x 123456789, h 123456789, x 1 (x takes no part in fair-share
        // reclaim). h runs one 4-GPU job, x another; c wants 4. Fair shares in milli: c 4000, h 3998, x 2 (the
        // weights' rounding). Before: h, 0.002 GPU above its share, lost its whole job to "fair share, within one
        // job", leaving h as far below its share as c had been.
        Scenario s = Scenario.nodes(4, 4)
                .team(new Team("c", 0, Team.UNLIMITED, 2.0 * BIG_WEIGHT, 0))
                .team(new Team("h", 0, Team.UNLIMITED, BIG_WEIGHT, 0))
                .team(new Team("x", 0, Team.UNLIMITED, 1, 0).withFairShareReclaim(false));
        s.running("h", "h1", "node-0", 0, gpus(0, 4)).running("x", "x1", "node-1", 0, gpus(0, 4));
        s.deploy(job("c", "c1", 4, 0));
        s.settle(3);
        assertThat(evictions(s)).as(() -> state(s)).isEmpty();
        assertThat(s.pending()).containsExactly("c/c1");
    }

    /** 8 + 4 GPUs; c, h, x of weight 1 without guarantees; x takes no part in fair-share reclaim. */
    private static Scenario claimantVictimAndBystander() {
        return Scenario.nodes(8, 4)
                .team("c", 0, 1)
                .team("h", 0, 1)
                .team(new Team("x", 0, Team.UNLIMITED, 1, 0).withFairShareReclaim(false));
    }

    @Test
    void fairShareReclaimNeverOnlyPassesTheShortfallOn() {
        // (c) 8 + 4 GPUs; c, h, x weight 1, no guarantees, x takes no part in fair-share reclaim; h runs one 5-GPU
        // job (1 above its share of 4), x runs 7; c (share 4, holds 0) wants 4. Evicting h's job would leave h 4
        // below its share, as far as c is now: the largest shortfall would not shrink. Before, it was evicted.
        Scenario s = claimantVictimAndBystander();
        s.running("h", "h1", "node-0", 0, gpus(0, 5))
                .running("x", "x1", "node-0", 0, gpus(5, 3))
                .running("x", "x2", "node-1", 0, gpus(0, 4));
        s.deploy(job("c", "c1", 4, 0));
        s.settle(3);
        assertThat(evictions(s)).as(() -> state(s)).isEmpty();
        assertThat(s.pending()).containsExactly("c/c1");
    }

    @Test
    void fairShareReclaimWithinOneJobStillServesAClaimantItHelps() {
        // (c) the control: as above, but h's job has 3 GPUs and h 4 more on node-1 (h holds 7, share 4): evicting
        // the 3-GPU job leaves h at its share, within the rule; c gets its 3 GPUs.
        Scenario s = claimantVictimAndBystander();
        s.running("h", "h1", "node-0", 0, gpus(0, 3))
                .running("x", "x1", "node-0", 0, gpus(3, 5))
                .running("h", "h2", "node-1", 0, gpus(0, 4));
        s.deploy(job("c", "c1", 3, 0));
        assertThat(s.running()).as(() -> state(s)).contains("c/c1");
        assertThat(evictions(s)).extracting(e -> e.job().toString()).containsExactly("h/h1");
    }

    @Test
    void whenGuaranteesExceedTheClusterTheGpusLeftAreSharedByGuaranteeNotByArrival() {
        // one 4-GPU node is left of two (the other was lost): a and b are guaranteed 4 each, every job is within its
        // team's guarantee. a's three jobs were queued before b's. Before: first come first served, a 3, b 1; now the
        // team holding the least of its guarantee is served first (equal shares: arrival), a 2, b 2.
        Scenario s = Scenario.nodes(4).team("a", 4, 1).team("b", 4, 1);
        for (int i = 1; i <= 3; i++) {
            queued(s, job("a", "a" + i, 1, 0));
        }
        for (int i = 1; i <= 3; i++) {
            queued(s, job("b", "b" + i, 1, 0));
        }
        s.run.requeue();
        assertThat(s.running()).as(() -> state(s)).containsExactlyInAnyOrder("a/a1", "a/a2", "b/b1", "b/b2");
        assertThat(s.pending()).containsExactlyInAnyOrder("a/a3", "b/b3");
    }

    @Test
    void withinGuaranteesTheTeamFurtherBelowItsGuaranteeGoesBeforeAHigherPriorityJob() {
        // one idle GPU of two; a and b are guaranteed 2 each; a runs one job and queues one, both of priority 10 (so
        // that a does not preempt its own job), b queues one of priority 0. Before: job priority decided (a reaches its
        // guarantee and b, at 0 of 2, cannot take
        // it back); now b, holding none of its guarantee, is served first.
        Scenario s = Scenario.nodes(2).team("a", 2, 1).team("b", 2, 1);
        s.running("a", "a1", "node-0", 10, 0);
        queued(s, job("a", "a2", 1, 10));
        queued(s, job("b", "b1", 1, 0));
        s.run.requeue();
        assertThat(s.running()).as(() -> state(s)).containsExactlyInAnyOrder("a/a1", "b/b1");
        assertThat(s.pending()).containsExactly("a/a2");
    }
}
