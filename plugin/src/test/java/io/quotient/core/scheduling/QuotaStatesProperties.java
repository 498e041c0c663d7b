package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The quota states of a snapshot against their definition, checked without the cover search: per team, every
 * non-preemptible job is in quota; its preemptible jobs all are when they fit in what the non-preemptible ones leave
 * of the guarantee, none when nothing is left, and otherwise a set of them whose GPUs reach the rest with the least
 * GPUs of any such set (found here by trying every subset). Teams' jobs come interleaved and named by equal strings
 * that are not the same object, and some belong to a team no file defines (guaranteed nothing).
 */
class QuotaStatesProperties {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final List<String> TEAMS = List.of("a", "b", "c");

    @Property(tries = 300)
    void everyTeamsJobsAreInQuotaAsTheDefinitionSays(
            @ForAll @Size(min = 1, max = 14) List<@IntRange(min = 0, max = 999) Integer> jobs,
            @ForAll @IntRange(min = 0, max = 12) int guaranteeA,
            @ForAll @IntRange(min = 0, max = 12) int guaranteeB) {
        Map<String, Team> teams = Map.of("a", Team.of("a", guaranteeA), "b", Team.of("b", guaranteeB));
        List<PlacedJob> placed = new ArrayList<>();
        for (int i = 0; i < jobs.size(); i++) {
            int v = jobs.get(i);
            // a fresh string each time: the states must not depend on which object names the team
            String team = new String(TEAMS.get(v % TEAMS.size()));
            placed.add(placed(team, "j" + i, 1 + v / 3 % 4, v / 12 % 4 != 0, i));
        }

        List<PlacedJob> now = QuotaStates.current(placed, teams, Map.of());

        assertThat(now).hasSize(placed.size());
        for (int i = 0; i < placed.size(); i++) {
            assertThat(now.get(i).id()).isEqualTo(placed.get(i).id());
        }
        for (String team : TEAMS) {
            long guaranteed = teams.containsKey(team) ? teams.get(team).guaranteedMilli() : 0;
            List<PlacedJob> own =
                    now.stream().filter(j -> j.spec().team().equals(team)).toList();
            long rest = guaranteed;
            List<PlacedJob> preemptible = new ArrayList<>();
            for (PlacedJob j : own) {
                if (j.spec().preemptible()) {
                    preemptible.add(j);
                } else {
                    assertThat(j.quotaState()).as("%s, not preemptible", j.id()).isEqualTo(QuotaState.IN_QUOTA);
                    rest -= j.gpuMilli();
                }
            }
            long all = preemptible.stream().mapToLong(PlacedJob::gpuMilli).sum();
            long in = preemptible.stream()
                    .filter(j -> j.quotaState() == QuotaState.IN_QUOTA)
                    .mapToLong(PlacedJob::gpuMilli)
                    .sum();
            if (rest <= 0) {
                assertThat(in)
                        .as("team %s has nothing of its guarantee left", team)
                        .isZero();
            } else if (all <= rest) {
                assertThat(in).as("team %s fits its guarantee", team).isEqualTo(all);
            } else {
                assertThat(in)
                        .as("team %s: the least GPUs reaching %d", team, rest)
                        .isEqualTo(leastReaching(preemptible, rest));
            }
        }
    }

    private static long leastReaching(List<PlacedJob> jobs, long rest) {
        long best = Long.MAX_VALUE;
        for (int mask = 1; mask < 1 << jobs.size(); mask++) {
            long sum = 0;
            for (int i = 0; i < jobs.size(); i++) {
                if ((mask & 1 << i) != 0) {
                    sum += jobs.get(i).gpuMilli();
                }
            }
            if (sum >= rest) {
                best = Math.min(best, sum);
            }
        }
        return best;
    }

    private static PlacedJob placed(String team, String name, int gpus, boolean preemptible, int minute) {
        JobSpec spec = new JobSpec(
                new JobId(team, name),
                GpuRequest.WholeGpus.of(gpus),
                1000,
                1024,
                Set.of(),
                0,
                preemptible,
                Duration.ZERO);
        return new PlacedJob(
                spec,
                "node-0",
                IntStream.range(0, gpus).boxed().toList(),
                1000,
                minute % 2 == 0 ? QuotaState.IN_QUOTA : QuotaState.OVER_QUOTA,
                T0.plusSeconds(60L * minute));
    }
}
