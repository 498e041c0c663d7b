package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.testing.TestClocks;
import io.quotient.time.MutableClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/** Properties of the decayed usage behind fair shares with memory ({@link UsageHistory}). */
class UsageDecayProperties {

    /** One step of a history: for so many minutes, team a borrows so much and team b so much. */
    record Step(int minutes, long a, long b) {}

    @Provide
    Arbitrary<List<Step>> histories() {
        return Combinators.combine(
                        Arbitraries.integers().between(1, 600),
                        Arbitraries.longs().between(0, 16_000),
                        Arbitraries.longs().between(0, 16_000))
                .as(Step::new)
                .list()
                .ofMinSize(1)
                .ofMaxSize(30);
    }

    /**
     * Once teams stop borrowing, their decayed usage never grows, whatever they borrowed before; and it never
     * exceeds the most they borrowed at once.
     */
    @Property(tries = 200)
    void usageDecaysMonotonically(
            @ForAll("histories") List<Step> history,
            @ForAll @IntRange(min = 1, max = 48) int halfLifeHours,
            @ForAll @IntRange(min = 1, max = 14) int windowDays) {
        MutableClock clock = new MutableClock(TestClocks.START);
        UsageHistory usage = new UsageHistory(
                new FairShareSettings(Duration.ofHours(halfLifeHours), Duration.ofDays(windowDays)), clock);
        long most = 0;
        for (Step step : history) {
            usage.record(Map.of("a", step.a(), "b", step.b()));
            clock.advance(Duration.ofMinutes(step.minutes()));
            most = Math.max(most, Math.max(step.a(), step.b()));
        }
        usage.record(Map.of());
        Map<String, Double> before = usage.decayedMilli();
        for (int i = 0; i < 40; i++) {
            clock.advance(Duration.ofMinutes(37L * (i + 1)));
            if (i % 3 == 0) {
                usage.record(Map.of());
            }
            Map<String, Double> now = usage.decayedMilli();
            for (String team : List.of("a", "b")) {
                double was = before.getOrDefault(team, 0.0);
                double is = now.getOrDefault(team, 0.0);
                assertThat(is).as("%s after %d steps", team, i).isLessThanOrEqualTo(was * (1 + 1e-9) + 1e-9);
                assertThat(is).isLessThanOrEqualTo(most * (1 + 1e-9));
            }
            before = now;
        }
    }

    /** A team that borrowed the same all window long has that as its decayed usage. */
    @Property(tries = 50)
    void constantBorrowingOverTheWholeWindowIsItself(
            @ForAll @LongRange(min = 0, max = 16_000) long milli,
            @ForAll @IntRange(min = 1, max = 48) int halfLifeHours) {
        MutableClock clock = new MutableClock(TestClocks.START);
        UsageHistory usage =
                new UsageHistory(new FairShareSettings(Duration.ofHours(halfLifeHours), Duration.ofDays(2)), clock);
        for (int hour = 0; hour < 60; hour++) {
            usage.record(Map.of("a", milli));
            clock.advance(Duration.ofHours(1));
        }
        // the window is kept to a bucket's width (2 days / 64): the mean is the constant within that
        assertThat(usage.decayedMilli().getOrDefault("a", 0.0)).isBetween(milli * 0.999, milli * 1.03);
    }
}
