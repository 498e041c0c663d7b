package io.quotient.core.scheduling;

import static io.quotient.core.scheduling.KaiScenarios.state;
import static io.quotient.core.scheduling.KueueScenarios.fairCq;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PendingJob;
import io.quotient.testing.TestClocks;
import io.quotient.time.MutableClock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Kueue's Admission Fair Sharing and its share value, translated one for one: {@code TestScheduleForAFS} (package
 * {@code pkg/scheduler}), the LocalQueue reconciler's usage cases ({@code pkg/controller/core}, "local queue
 * decaying usage ...") and {@code TestDominantResourceShare} (package {@code pkg/cache}). A LocalQueue of the AFS
 * ClusterQueue is a team guaranteed nothing (the ClusterQueue's 8 CPUs are 8 GPUs of one node, and AFS orders
 * LocalQueues inside it as Quotient orders teams borrowing idle GPUs); a LocalQueue's consumed resources are the
 * team's decayed usage ({@link UsageHistory}); a ClusterQueue's fair weight is the team's {@code overQuotaWeight},
 * a cohort with a weight a department.
 *
 * <p>Not translated: "ResolveLQWeight" and the entry-penalty arithmetic (Quotient has no entry penalty: today's
 * borrowing enters the order directly, docs/fairness.md "Peers"), DRA resources, multiple flavors and lending
 * limits (CPU and memory dimensions, lendingLimit has no counterpart).
 */
class KueueAdmissionFairSharingScenariosTest {

    /** The AFS ClusterQueue's three LocalQueues on 8 GPUs, with the consumed resources given (GPUs). */
    private static Scenario afs(Map<String, Double> usageGpus) {
        Scenario s = Scenario.nodes(8)
                .team(fairCq("lq-a", 0, 1))
                .team(fairCq("lq-b", 0, 1))
                .team(fairCq("lq-c", 0, 1));
        Map<String, Double> past = new java.util.HashMap<>();
        usageGpus.forEach((team, gpus) -> past.put(team, gpus * 1000));
        s.run.pastBorrowed = past;
        return s;
    }

    /** Workloads created one second apart, then one scheduling pass over them all, as Kueue's test does. */
    private static Scenario schedule(Scenario s, JobSpec... workloads) {
        for (JobSpec w : workloads) {
            s.run.pending.put(w.id(), new PendingJob(w, s.run.now));
            s.run.advance(Duration.ofSeconds(1));
        }
        s.run.requeue();
        return s;
    }

    private static JobSpec wl(String lq, String name, int gpus) {
        return Scenario.job(lq, name, gpus, 0);
    }

    @Test
    void admitsWorkloadFromLessActiveLocalQueue() {
        // Kueue "admits workload from less active localqueue": lq-a consumed 8, lq-b 2; wl-a1 (8) created before
        // wl-b1 (8). Kueue: wl-b1 admitted, wl-a1 pending. Quotient: b's position 2 against a's 8.
        Scenario s = schedule(afs(Map.of("lq-a", 8.0, "lq-b", 2.0)), wl("lq-a", "wl-a1", 8), wl("lq-b", "wl-b1", 8));
        assertThat(s.running()).as(() -> state(s)).containsExactly("lq-b/wl-b1");
        assertThat(s.pending()).containsExactly("lq-a/wl-a1");
    }

    @Test
    void withoutAfsTheOlderWorkloadIsAdmitted() {
        // Kueue "without AFS: classic admission decision ignores queue usage": as above, AFS off. Kueue: wl-a1.
        // Quotient with half-life 0 (no past): the older job.
        Scenario s = schedule(afs(Map.of()), wl("lq-a", "wl-a1", 8), wl("lq-b", "wl-b1", 8));
        assertThat(s.running()).as(() -> state(s)).containsExactly("lq-a/wl-a1");
    }

    @Test
    void admitsOneWorkloadFromEachLocalQueueWhenQuotaIsLimited() {
        // Kueue "admits one workload from each localqueue when quota is limited": lq-a and lq-b consumed 4 each;
        // wl-a1, wl-a2, wl-b1, wl-b2 of 4 each. Kueue: wl-a1 and wl-b1. Quotient: a1 by arrival, then b's position
        // (4) is below a's (4 + the 4 it now borrows).
        Scenario s = schedule(
                afs(Map.of("lq-a", 4.0, "lq-b", 4.0)),
                wl("lq-a", "wl-a1", 4),
                wl("lq-a", "wl-a2", 4),
                wl("lq-b", "wl-b1", 4),
                wl("lq-b", "wl-b2", 4));
        assertThat(s.running()).as(() -> state(s)).containsExactlyInAnyOrder("lq-a/wl-a1", "lq-b/wl-b1");
    }

    @Test
    void schedulesNormallyWhenQueuesHaveEqualUsage() {
        // Kueue "schedules normally when queues have equal usage": 2 each; wl-a1 (4), wl-b1 (3), wl-c1 (1): all
        // admitted.
        Scenario s = schedule(
                afs(Map.of("lq-a", 2.0, "lq-b", 2.0, "lq-c", 2.0)),
                wl("lq-a", "wl-a1", 4),
                wl("lq-b", "wl-b1", 3),
                wl("lq-c", "wl-c1", 1));
        assertThat(s.pending()).as(() -> state(s)).isEmpty();
    }

    /** The decayed usage after 8 GPUs borrowed for a whole day, then {@code now} GPUs for {@code after}. */
    private static double usageAfter(Duration halfLife, long nowMilli, Duration after) {
        MutableClock clock = new MutableClock(TestClocks.START);
        UsageHistory h = new UsageHistory(new FairShareSettings(halfLife, Duration.ofDays(1)), clock);
        h.record(Map.of("lq", 8000L));
        clock.advance(Duration.ofDays(1));
        h.record(nowMilli > 0 ? Map.of("lq", nowMilli) : Map.of());
        clock.advance(after);
        return h.decayedMilli().getOrDefault("lq", 0.0);
    }

    @Test
    void localQueueUsageDecaysByHalfInAHalfLife() {
        // Kueue "local queue decaying usage decays if there is no running workloads": consumed 8, half-life 5 min,
        // nothing running: 4 after the sampling interval (5 min). Quotient: 8 GPUs for a day, then none for one
        // half-life: 4.
        assertThat(usageAfter(Duration.ofMinutes(5), 0, Duration.ofMinutes(5))).isCloseTo(4000, within(1.0));
    }

    @Test
    void localQueueUsageMixesThePastAndTheRunningWorkloads() {
        // Kueue "... sums the previous state and running workloads with 50/50 ratio": consumed 8000, a 4-CPU
        // workload running, half-life 5 min: 6000. Quotient: 8 GPUs, then 4 for one half-life: 6.
        assertThat(usageAfter(Duration.ofMinutes(5), 4000, Duration.ofMinutes(5)))
                .isCloseTo(6000, within(1.0));
        // Kueue "... with 75/25 ratio": half-life 10 min, sampled after 5: 7000 (a linear weight of 1/4 for the
        // sample). DIFFERENCE (the definition, docs/fairness.md): Quotient weighs time exactly by 2^(-t/h), so after
        // half a half-life the past keeps 2^(-1/2) = 0.71 of its weight: 8 x 0.71 + 4 x 0.29 = 6.83 (Kueue's
        // current alpha, 1 - 0.5^(5/10), gives the same).
        assertThat(usageAfter(Duration.ofMinutes(10), 4000, Duration.ofMinutes(5)))
                .isCloseTo(6828, within(1.0));
    }

    @Test
    void usageDecaysContinuouslyNotPerSample() {
        // Kueue "local queue decaying usage is not reconciled if not enough time has passed": 4 min after the last
        // sample (interval 5 min) the consumed 8 stays 8. DIFFERENCE (the definition): Quotient's usage has no
        // sampling interval; it is read when the scheduler decides, 4 min into a 5-min half-life: 8 x 2^(-4/5).
        assertThat(usageAfter(Duration.ofMinutes(5), 0, Duration.ofMinutes(4))).isCloseTo(4595, within(1.0));
    }

    @Test
    void dominantShareIsBorrowedPerWeight() {
        // Kueue TestDominantResourceShare, a ClusterQueue beside a lending one in a cohort of 10 GPUs: "usage below
        // nominal" 0; "usage above nominal" (7 of nominal 5): 200 = 2 borrowed x 1000 / 10 lendable; "above nominal
        // with integer weight" (2): 100; "... decimal weight" (0.5): 400; "... zero weight": MaxInt. Quotient's
        // position is borrowed milli per weight (Kueue's value times the cohort's lendable GPUs, which all teams
        // share, so the order is Kueue's); a weight of 0 comes after every positive weight.
        assertThat(SharePosition.of(0, 1).value()).isZero();
        assertThat(SharePosition.of(2000, 1).value()).isEqualTo(2000);
        assertThat(SharePosition.of(2000, 2).value()).isEqualTo(1000);
        assertThat(SharePosition.of(2000, 0.5).value()).isEqualTo(4000);
        SharePosition zeroWeight = SharePosition.of(2000, 0);
        assertThat(zeroWeight.noEntitlement()).isTrue();
        assertThat(zeroWeight).isGreaterThan(SharePosition.of(1_000_000, 0.001));
        assertThat(SharePosition.of(1000, 0)).isLessThan(zeroWeight);
    }

    @Test
    void cohortShareIsItsBorrowingPerItsWeight() {
        // Kueue "cohort has resource share": cq (nominal 5, using 10) in child-cohort (weight 2) under root (45):
        // cq 100, child-cohort 50 = the same borrowing per the cohort's weight. Quotient: the department's position
        // is what it holds beyond its guarantee per its weight, and it orders its teams first: a team of a
        // department borrowing 5 at weight 2 (2500) goes before a lone team borrowing 3 at weight 1 (3000), though
        // its own position (5000) is higher.
        SharePosition department = SharePosition.of(5000, 2);
        SharePosition inDepartment = SharePosition.of(5000, 1).within(department);
        assertThat(department.value()).isEqualTo(2500);
        assertThat(inDepartment).isLessThan(SharePosition.of(3000, 1));
    }

    @Test
    void zeroWeightQueueBorrowsLast() {
        // The order the share values give (Kueue's fair-sharing tournament): 4 idle GPUs; z (weight 0) borrows
        // nothing yet, w (weight 1) already borrows 4 of another node. Both wait for a 4-GPU job, z's first. Kueue
        // orders by share, MaxInt for weight 0: w's job. Quotient: the same.
        Scenario s = Scenario.nodes(4, 4).team(fairCq("z", 0, 0)).team(fairCq("w", 0, 1));
        s.running("w", "w0", "node-1", 0, 0, 1, 2, 3);
        schedule(s, wl("z", "z1", 4), wl("w", "w1", 4));
        assertThat(s.running()).as(() -> state(s)).containsExactlyInAnyOrder("w/w0", "w/w1");
    }
}
