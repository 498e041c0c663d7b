package io.quotient.it.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.it.soak.Observation.LeaseState;
import io.quotient.it.soak.Observation.ObservedJob;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The in-quota clause judges a stored quota state only when it is known to be current: the team unchanged for the
 * staleness bound before the look, the same leader, no fault that stops the leader's passes, and nothing but
 * evictions between that look and the eviction.
 */
class QuotaLabelTrustTest {

    private static final String REASON = "Preempted by team-b reclaiming its guarantee for team-b/b1; this job ran on"
            + " borrowed GPUs (team-a held 3 GPUs with a guarantee of 1)";
    private static final LeaseState R1 = new LeaseState("replica-1", 0, 0, 1);

    private final QuotaLabelTrust trust = new QuotaLabelTrust();
    private final EvictionChecks checks = new EvictionChecks();

    @Test
    void anInQuotaJobEvictedFromAStableTeamIsAViolation() {
        lookStable(0, 20_000, R1);
        look(22_000, R1, evicted("a1"), held("a2", 2000));

        assertThat(trust.trusted("team-a")).isTrue();
        assertThat(checks.check(held("a1", 1000), evicted("a1"), trust.trusted("team-a")))
                .anySatisfy(v -> assertThat(v).startsWith("in-quota job team-a/a1 (InQuota, 1000 milli) was evicted"));
    }

    @Test
    void aTeamThatChangedWithinTheBoundIsNotJudgedByItsLabel() {
        lookStable(0, 20_000, R1);
        look(22_000, R1, held("a1", 1000), held("a2", 2000), held("a3", 1000)); // a3 placed: the cover may change
        lookStable(24_000, 30_000, R1, held("a3", 1000));
        look(32_000, R1, evicted("a1"), held("a2", 2000), held("a3", 1000));

        assertThat(trust.trusted("team-a")).isFalse();
        assertThat(checks.check(held("a1", 1000), evicted("a1"), trust.trusted("team-a")))
                .isEmpty();
    }

    @Test
    void aTeamThatGrewBetweenTheLookAndTheEvictionIsNotJudgedByItsLabel() {
        lookStable(0, 20_000, R1);
        look(22_000, R1, evicted("a1"), held("a2", 2000), held("a3", 1000));

        assertThat(trust.trusted("team-a")).isFalse();
    }

    @Test
    void aNewLeaderOrALeaderFaultWithinTheBoundStopsTrust() {
        lookStable(0, 20_000, R1);
        look(22_000, new LeaseState("replica-2", 21_000, 21_000, 2), held("a1", 1000), held("a2", 2000));
        lookStable(24_000, 34_000, new LeaseState("replica-2", 21_000, 21_000, 2));
        assertThat(trust.trusted("team-a")).as("replica-2 leads for 12 s only").isFalse();

        lookStable(36_000, 52_000, new LeaseState("replica-2", 21_000, 21_000, 2));
        assertThat(trust.trusted("team-a")).isTrue();
        trust.fault("pause-follower", 53_000);
        look(54_000, new LeaseState("replica-2", 21_000, 21_000, 2), held("a1", 1000), held("a2", 2000));
        assertThat(trust.trusted("team-a"))
                .as("a follower's fault does not stop the passes")
                .isTrue();
        trust.fault("api-cut", 55_000);
        lookStable(56_000, 66_000, new LeaseState("replica-2", 21_000, 21_000, 2));
        assertThat(trust.trusted("team-a")).isFalse();
    }

    @Test
    void aGuaranteeChangeWithinTheBoundStopsTrust() {
        lookStable(0, 20_000, R1);
        trust.guaranteeChanged("team-a", 21_000);
        look(22_000, R1, held("a1", 1000), held("a2", 2000));

        assertThat(trust.trusted("team-a")).isFalse();
    }

    /** Looks every 2 s from {@code from} to {@code to}: team-a holds a1 (in quota) and a2, and the extra jobs. */
    private void lookStable(long from, long to, LeaseState lease, ObservedJob... extra) {
        for (long t = from; t <= to; t += 2000) {
            List<ObservedJob> jobs = new ArrayList<>(List.of(held("a1", 1000), held("a2", 2000)));
            jobs.addAll(List.of(extra));
            look(t, lease, jobs.toArray(ObservedJob[]::new));
        }
    }

    private void look(long t, LeaseState lease, ObservedJob... jobs) {
        trust.observe(
                new Observation(t, List.of(jobs), List.of(), Map.of(), List.of(), Map.of("n1", 8), lease, List.of()));
    }

    private static ObservedJob held(String name, int milli) {
        return new ObservedJob(
                "team-a",
                name,
                "Running",
                "n1",
                List.<int[]>of(new int[] {0, milli}),
                "a1".equals(name) ? "InQuota" : "OverQuota",
                null,
                milli,
                1,
                List.of());
    }

    private static ObservedJob evicted(String name) {
        return new ObservedJob("team-a", name, "Pending", null, List.of(), null, REASON, 1000, 1, List.of());
    }
}
