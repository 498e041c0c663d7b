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

    @Property(tries = 200)
    void equalsTheBestSubsetByBruteForce(
            @ForAll @Size(max = 10) List<@IntRange(min = 1, max = 40) Integer> sizes,
            @ForAll @IntRange(min = 0, max = 120) int bound) {
        WholeJobTarget target = new WholeJobTarget();
        sizes.forEach(s -> target.add(s * 250L));
        long best = 0;
        for (int mask = 0; mask < 1 << sizes.size(); mask++) {
            long sum = 0;
            for (int i = 0; i < sizes.size(); i++) {
                if ((mask & 1 << i) != 0) {
                    sum += sizes.get(i) * 250L;
                }
            }
            if (sum <= bound * 250L) {
                best = Math.max(best, sum);
            }
        }
        assertThat(target.within(bound * 250L)).isEqualTo(best);
    }
}
