package io.quotient.core.scheduling;

import static io.quotient.core.scheduling.Scenario.gpus;
import static io.quotient.core.scheduling.Scenario.job;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * How far the within-one-job fallbacks ({@link ReclaimRules#guaranteeWithinOneJob},
 * {@link ReclaimRules#fairShareWithinOneJob}) may take a victim whose only borrowed job is larger than its excess:
 * as far below its level as the claimant is below its own, and no further. The KAI scenario tests show where they
 * reclaim; these show where they must not.
 */
class WithinOneJobRulesTest {

    private static long evictions(Scenario s) {
        return s.run.plans.stream()
                .mapToLong(p -> p.actionsOf(PlanAction.Evict.class).size())
                .sum();
    }

    /** team-a (guarantee 2) holds 4 in one job; team-b (guarantee 2) holds nothing and asks 2. */
    static Scenario oneJobAboveItsGuarantee() {
        return Scenario.nodes(4)
                .team("team-a", 2, 1)
                .team("team-b", 2, 1)
                .running("team-a", "a4", "node-0", 0, gpus(0, 4))
                .deploy(job("team-b", "b2", 2, 0));
    }

    /** team-a (weight 1) holds 8 in one job of 10 GPUs; team-b (weight 2) asks 6, its share (team-a's is 4). */
    static Scenario oneJobAboveItsShare() {
        return Scenario.nodes(10)
                .team("team-a", 0, 1)
                .team("team-b", 0, 2)
                .running("team-a", "a8", "node-0", 0, gpus(0, 8))
                .deploy(job("team-b", "b6", 6, 0));
    }

    @Test
    void aVictimMayEndAsFarBelowItsGuaranteeAsTheClaimantIs() {
        // team-a ends 2 below its guarantee, as far as team-b was below its own
        Scenario s = oneJobAboveItsGuarantee();
        assertThat(s.running()).containsExactly("team-b/b2");
        assertThat(s.pending()).containsExactly("team-a/a4");
    }

    @Test
    void aVictimIsNotTakenFurtherBelowItsGuaranteeThanTheClaimantIs() {
        // team-a (guarantee 3) holds 4 in one job; team-b is 1 below its guarantee of 1: evicting the job would leave
        // team-a 3 below its own, so team-b waits for the job to end (or for capacity) instead
        Scenario s = Scenario.nodes(4)
                .team("team-a", 3, 1)
                .team("team-b", 1, 1)
                .running("team-a", "a4", "node-0", 0, gpus(0, 4))
                .deploy(job("team-b", "b1", 1, 0));
        assertThat(s.pending()).containsExactly("team-b/b1");
        assertThat(evictions(s)).isZero();
    }

    @Test
    void forFairShareAVictimIsNotTakenFurtherBelowItsShareThanTheClaimantIs() {
        // shares of 10 GPUs by demand, weights 1:1: team-a 7, team-b 3; team-a holds 8 in one job, team-b asks 3 and
        // is 3 below its share: evicting would leave team-a 7 below its own
        Scenario s = Scenario.nodes(10)
                .team("team-a", 0, 1)
                .team("team-b", 0, 1)
                .running("team-a", "a8", "node-0", 0, gpus(0, 8))
                .deploy(job("team-b", "b3", 3, 0));
        assertThat(s.pending()).containsExactly("team-b/b3");
        assertThat(evictions(s)).isZero();
    }

    @Test
    void forFairShareAVictimIsNotTakenBelowItsGuaranteeFurtherThanTheClaimantIsBelowItsOwn() {
        // team-a (guarantee 3, weight 1) holds 8 in one job of 10 GPUs; team-b (no guarantee, weight 3) asks 5 of its
        // share of 5.25: evicting would leave team-a 3 below its guarantee while team-b is not below its own
        Scenario s = Scenario.nodes(10)
                .team("team-a", 3, 1)
                .team("team-b", 0, 3)
                .running("team-a", "a8", "node-0", 0, gpus(0, 8))
                .deploy(job("team-b", "b5", 5, 0));
        assertThat(s.pending()).containsExactly("team-b/b5");
        assertThat(evictions(s)).isZero();
    }

    @Test
    void forFairShareAVictimMayEndAsFarBelowItsShareAsTheClaimantIs() {
        Scenario s = oneJobAboveItsShare();
        assertThat(s.running()).containsExactly("team-b/b6");
        assertThat(s.pending()).containsExactly("team-a/a8");
    }
}
