package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.JobId;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link JobNames#compare} orders jobs exactly as their full names' {@code toString().compareTo} did, which the
 * queue, the quota cover and the reclaim candidates broke ties with before: a different sign would change decisions.
 */
class JobNamesProperties {

    @Property(tries = 2000)
    void ordersAsTheFullNames(
            @ForAll("names") String teamA,
            @ForAll("names") String nameA,
            @ForAll("names") String teamB,
            @ForAll("names") String nameB) {
        JobId a = new JobId(teamA, nameA);
        JobId b = new JobId(teamB, nameB);

        assertThat(Integer.signum(JobNames.compare(a, b)))
                .isEqualTo(Integer.signum(a.toString().compareTo(b.toString())));
    }

    @Example
    void aTeamThatIsAPrefixOfAnotherSortsByTheSeparator() {
        // "ab/x" against "a/bx": '/' sorts before 'b', so a pair order (team, then name) would get it wrong
        JobId longer = new JobId("ab", "x");
        JobId shorter = new JobId("a", "bx");

        assertThat(JobNames.compare(shorter, longer)).isNegative();
        assertThat(JobNames.compare(longer, shorter)).isPositive();
        assertThat(JobNames.compare(longer, new JobId("ab", "x"))).isZero();
    }

    /** Short names over few letters and the separator itself, so that prefixes and ties are common. */
    @Provide
    Arbitrary<String> names() {
        return Arbitraries.strings().withChars("ab/-Z").ofMinLength(0).ofMaxLength(4);
    }
}
