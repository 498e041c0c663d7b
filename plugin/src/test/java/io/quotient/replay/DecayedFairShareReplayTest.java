package io.quotient.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobKind;
import io.quotient.core.model.Team;
import io.quotient.core.scheduling.FairShareSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The replay keeps the teams' decayed past borrowing as the service does (the core's UsageHistory, in simulated
 * time): a team that held the whole cluster all night gets less of the morning's idle pool than one that held
 * nothing, and with no memory both get the same.
 */
class DecayedFairShareReplayTest {

    private static final long T0 = 1_506_816_000_000L; // 2017-10-01T00:00:00Z
    private static final long HOUR = 3_600_000;

    private static ReplayJob job(String name, String team, long submitMs, long durationMs) {
        return new ReplayJob(
                name,
                team,
                submitMs,
                durationMs,
                new GpuRequest.WholeGpus(1),
                0,
                0,
                Set.of(),
                1,
                JobKind.TRAIN,
                0,
                true,
                ReplayJob.DEFAULT_CHECKPOINT_MS,
                Duration.ZERO);
    }

    private static List<ReplayJob> nightThenMorning() {
        List<ReplayJob> jobs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            jobs.add(job("night-" + i, "a", T0, 10 * HOUR)); // a alone holds all four GPUs for ten hours
        }
        for (int i = 0; i < 4; i++) {
            jobs.add(job("owner-" + i, "c", T0 + 10 * HOUR, 2 * HOUR)); // then c, in its guarantee, until noon
        }
        for (int i = 0; i < 4; i++) {
            jobs.add(job("morning-a-" + i, "a", T0 + 11 * HOUR, HOUR)); // both wait for c's GPUs
            jobs.add(job("morning-b-" + i, "b", T0 + 11 * HOUR, HOUR));
        }
        jobs.sort(java.util.Comparator.comparingLong(ReplayJob::submitMs));
        return jobs;
    }

    /** Per team, how many of its morning jobs start when c's GPUs come free at noon. */
    private static Map<String, Integer> startedAtNoon(FairShareSettings fairShare) {
        Map<String, Team> teams = new LinkedHashMap<>();
        teams.put("a", Team.of("a", 0));
        teams.put("b", Team.of("b", 0));
        teams.put("c", Team.of("c", 4));
        ReplayPolicy quotient = Baselines.named("quotient").withFairShare(fairShare);
        Map<String, Integer> started = new TreeMap<>(Map.of("a", 0, "b", 0));
        new ReplayEngine(ClusterSize.uniform(1, 4), teams, quotient).run(nightThenMorning(), new ReplayListener() {
            @Override
            public void started(JobRun run, long nowMs, boolean afterMove) {
                if (nowMs == T0 + 12 * HOUR) {
                    started.merge(run.job().team(), 1, Integer::sum);
                }
            }
        });
        return started;
    }

    @Test
    void aTeamThatBorrowedAllNightGetsLessOfTheMorningsIdlePool() {
        assertThat(startedAtNoon(FairShareSettings.INSTANTANEOUS))
                .as("no memory: the four GPUs are split evenly")
                .isEqualTo(Map.of("a", 2, "b", 2));
        assertThat(startedAtNoon(new FairShareSettings(Duration.ofHours(12), Duration.ofDays(7))))
                .as("a's night counts against it for half a day")
                .isEqualTo(Map.of("a", 1, "b", 3));
    }

    @Test
    void withAShortHalfLifeTheNightIsForgottenAndTheSplitIsEvenAgain() {
        assertThat(startedAtNoon(new FairShareSettings(Duration.ofMinutes(10), Duration.ofDays(7))))
                .as("ten-minute half-life: an hour after the night a's borrowing is all but forgotten")
                .isEqualTo(Map.of("a", 2, "b", 2));
    }
}
