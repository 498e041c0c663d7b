package io.quotient.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class WholeJobTargetTest {

    @Test
    void theMostWholeJobsWithinTheBound() {
        WholeJobTarget target = new WholeJobTarget();
        target.add(32_000);
        assertThat(target.within(19_000)).isZero();
        target.add(8_000);
        target.add(8_000);
        target.add(4_000);
        assertThat(target.within(19_000)).isEqualTo(16_000);
        assertThat(target.within(20_000)).isEqualTo(20_000);
        target.remove(4_000);
        assertThat(target.within(20_000)).isEqualTo(16_000);
    }

    @Test
    void fractionsCountInTheirOwnUnits() {
        WholeJobTarget target = new WholeJobTarget();
        target.add(250);
        target.add(250);
        target.add(1_000);
        assertThat(target.within(1_400)).isEqualTo(1_250);
    }

    @Test
    void aSmallerOrLargerGapAfterAnotherIsAnsweredForItself() {
        WholeJobTarget target = new WholeJobTarget();
        target.add(3_000);
        target.add(5_000);
        assertThat(target.within(8_000)).isEqualTo(8_000);
        assertThat(target.within(4_000)).isEqualTo(3_000);
        assertThat(target.within(2_000)).isZero();
        assertThat(target.within(-1_000)).isZero();
        assertThat(target.within(7_000)).isEqualTo(5_000);
        assertThat(target.within(100_000)).isEqualTo(8_000);
    }

    /** Several gaps asked in turn of the same jobs, as the team's held GPUs change between the replay's events. */
    @Property(tries = 200)
    void equalsTheBestSubsetByBruteForce(
            @ForAll @Size(max = 10) List<@IntRange(min = 1, max = 40) Integer> sizes,
            @ForAll @Size(min = 1, max = 4) List<@IntRange(min = -10, max = 120) Integer> gaps) {
        WholeJobTarget target = new WholeJobTarget();
        sizes.forEach(s -> target.add(s * 250L));
        for (int gap : gaps) {
            assertThat(target.within(gap * 250L)).isEqualTo(bestSubset(sizes, gap) * 250L);
        }
    }

    /** The largest sum of some of {@code sizes} that is at most {@code bound}, by trying every subset. */
    static long bestSubset(List<Integer> sizes, long bound) {
        long best = 0;
        for (int mask = 0; mask < 1 << sizes.size(); mask++) {
            long sum = 0;
            for (int i = 0; i < sizes.size(); i++) {
                if ((mask & 1 << i) != 0) {
                    sum += sizes.get(i);
                }
            }
            if (sum <= bound) {
                best = Math.max(best, sum);
            }
        }
        return best;
    }
}
