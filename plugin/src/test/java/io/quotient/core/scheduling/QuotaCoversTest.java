package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.Team;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** The quota covers kept between decisions: reused only while a team's jobs and guarantee are what they were. */
class QuotaCoversTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static PlacedJob placed(String team, String name, int gpus, int minute) {
        return new PlacedJob(
                Scenario.job(team, name, gpus, 0),
                "node-0",
                IntStream.range(0, gpus).boxed().toList(),
                1000,
                QuotaState.IN_QUOTA,
                T0.plusSeconds(60L * minute));
    }

    @Test
    void theSameJobsAndGuaranteeReuseTheCoverAndAnyChangeComputesItAgain() {
        QuotaCovers covers = new QuotaCovers();
        AtomicInteger computed = new AtomicInteger();
        List<PlacedJob> jobs = List.of(placed("a", "a2", 2, 0), placed("a", "a5", 5, 1));

        Set<JobId> first = covers.inQuota("a", jobs, 4000, () -> counted(computed, jobs, 4000));
        Set<JobId> again = covers.inQuota("a", List.copyOf(jobs), 4000, () -> counted(computed, jobs, 4000));
        assertThat(again).isSameAs(first).containsExactly(new JobId("a", "a5"));
        assertThat(computed).hasValue(1);

        covers.inQuota("a", jobs, 2000, () -> counted(computed, jobs, 2000));
        assertThat(computed).as("another guarantee").hasValue(2);
        List<PlacedJob> more = new ArrayList<>(jobs);
        more.add(placed("a", "a1", 1, 2));
        assertThat(covers.inQuota("a", more, 2000, () -> counted(computed, more, 2000)))
                .containsExactly(new JobId("a", "a2"));
        assertThat(computed).as("a job more").hasValue(3);
        List<PlacedJob> reordered = List.of(more.get(2), more.get(0), more.get(1));
        covers.inQuota("a", reordered, 2000, () -> counted(computed, reordered, 2000));
        assertThat(computed).as("the same jobs in another order").hasValue(4);
    }

    @Test
    void keepsNoCoverWhenToldToKeepNone() {
        AtomicInteger computed = new AtomicInteger();
        List<PlacedJob> jobs = List.of(placed("a", "a2", 2, 0));
        QuotaCovers.NONE.inQuota("a", jobs, 1000, () -> counted(computed, jobs, 1000));
        QuotaCovers.NONE.inQuota("a", jobs, 1000, () -> counted(computed, jobs, 1000));
        assertThat(computed).hasValue(2);
    }

    /**
     * Over a stream of snapshots in which teams start and lose jobs and guarantees change, every decision's quota
     * states with covers kept from the decisions before are those computed afresh.
     */
    @Property(tries = 200)
    void keptCoversGiveTheQuotaStatesComputedAfresh(
            @ForAll @Size(min = 1, max = 30) List<@IntRange(min = 0, max = 99) Integer> steps) {
        QuotaCovers covers = new QuotaCovers();
        List<PlacedJob> placed = new ArrayList<>();
        Map<String, Team> teams = Map.of("a", Team.of("a", 4), "b", Team.of("b", 2));
        int n = 0;
        for (int step : steps) {
            String team = step % 2 == 0 ? "a" : "b";
            if (step % 5 == 4 && !placed.isEmpty()) {
                placed.remove(step % placed.size());
            } else if (step % 7 == 6) {
                teams = Map.of("a", Team.of("a", step % 6), "b", Team.of("b", 2));
            } else {
                placed.add(placed(team, team + n++, 1 + step % 4, step));
            }
            assertThat(QuotaStates.current(placed, teams, Map.of(), covers))
                    .isEqualTo(QuotaStates.current(placed, teams, Map.of()));
        }
    }

    private static Set<JobId> counted(AtomicInteger computed, List<PlacedJob> jobs, long guaranteed) {
        computed.incrementAndGet();
        return QuotaStates.inQuota(jobs, guaranteed);
    }
}
