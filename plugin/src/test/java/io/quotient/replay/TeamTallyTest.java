package io.quotient.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** The time-to-guarantee target: what the team holds, its running jobs fixed, plus what its waiting jobs can add. */
class TeamTallyTest {

    private static final long HOUR = 3_600_000;

    @Test
    void aTeamWhoseEveryWaitingJobIsLargerThanItsGapIsNotBelowItsTarget() {
        // 73 of 75 held in 1-, 4- and 8-GPU jobs, only 8-GPU jobs waiting: a subset of 75 exists only without a 4
        TeamTally tally = new TeamTally(75_000);
        hold(tally, List.of(1, 1, 1, 1, 1, 4, 4, 4, 8, 8, 8, 8, 8, 8, 8));
        List.of(8, 8, 8).forEach(g -> tally.waits(g * 1000L));
        tally.integrate(0, HOUR, 0, () -> 0);
        tally.closeDeficit(HOUR);
        assertThat(tally.heldMilli()).isEqualTo(73_000);
        assertThat(tally.deficitGpuHours()).isZero();
        assertThat(tally.timesToGuaranteeMs()).isEmpty();
    }

    @Test
    void aTeamWithAWaitingJobWithinItsGapIsBelowItsTargetUntilTheJobIsPlaced() {
        TeamTally tally = new TeamTally(75_000);
        hold(tally, List.of(8, 8, 8, 8, 8, 8, 8, 8, 6)); // 70
        tally.waits(4_000);
        tally.integrate(0, HOUR, 0, () -> 0);
        tally.stopsWaiting(4_000);
        tally.holds(4_000);
        tally.integrate(HOUR, HOUR, 0, () -> 0);
        tally.closeDeficit(2 * HOUR);
        assertThat(tally.deficitGpuHours()).isCloseTo(4.0, within(1e-9));
        assertThat(tally.timesToGuaranteeMs()).containsExactly(HOUR);
    }

    /** Against brute force: the deficit of an hour is the best subset of waiting jobs within the bound less held. */
    @Property(tries = 300)
    void theDeficitIsTheBestSubsetOfWaitingJobsWithinTheGap(
            @ForAll @Size(max = 6) List<@IntRange(min = 1, max = 30) Integer> running,
            @ForAll @Size(max = 8) List<@IntRange(min = 1, max = 30) Integer> waiting,
            @ForAll @IntRange(min = 0, max = 120) int guarantee) {
        long unit = 250;
        TeamTally tally = new TeamTally(guarantee * unit);
        running.forEach(s -> tally.holds(s * unit));
        waiting.forEach(s -> tally.waits(s * unit));
        tally.integrate(0, HOUR, 0, () -> 0);

        long held = running.stream().mapToLong(Integer::longValue).sum();
        long demand = held + waiting.stream().mapToLong(Integer::longValue).sum();
        long gap = Math.min(guarantee, demand) - held;
        long expected = gap <= 0 ? 0 : WholeJobTargetTest.bestSubset(waiting, gap);
        assertThat(tally.deficitGpuHours()).isCloseTo(expected * unit / 1000.0, within(1e-9));
    }

    private static void hold(TeamTally tally, List<Integer> gpus) {
        gpus.forEach(g -> tally.holds(g * 1000L));
    }
}
