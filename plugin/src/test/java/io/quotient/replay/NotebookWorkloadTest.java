package io.quotient.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobKind;
import io.quotient.core.model.Team;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The synthetic notebooks: seeded, in working hours on working days, for teams with a guarantee, profiles that add up. */
class NotebookWorkloadTest {

    // Monday 2017-10-02 00:00 UTC to Monday 2017-10-09: five working days and a weekend
    private static final long FROM = Instant.parse("2017-10-02T00:00:00Z").toEpochMilli();
    private static final long TO = Instant.parse("2017-10-09T00:00:00Z").toEpochMilli();

    private static Map<String, Team> teams() {
        Map<String, Team> teams = new LinkedHashMap<>();
        teams.put("b", Team.of("b", 8));
        teams.put("a", Team.of("a", 4));
        teams.put("none", Team.of("none", 0));
        return teams;
    }

    @Test
    void theSameSeedGivesTheSameNotebooksAndAnotherSeedOthers() {
        List<ReplayJob> one = NotebookWorkload.generate(teams(), FROM, TO, 6, 7);
        assertThat(NotebookWorkload.generate(teams(), FROM, TO, 6, 7)).isEqualTo(one);
        assertThat(NotebookWorkload.generate(teams(), FROM, TO, 6, 8)).isNotEqualTo(one);
        // the teams' order does not matter, nor does another team: each team has its own stream
        Map<String, Team> more = new LinkedHashMap<>();
        more.put("c", Team.of("c", 2));
        more.putAll(teams());
        assertThat(NotebookWorkload.generate(more, FROM, TO, 6, 7).stream()
                        .filter(j -> !j.team().equals("c"))
                        .toList())
                .isEqualTo(one);
    }

    @Test
    void notebooksOpenInWorkingHoursOfWorkingDaysForTeamsWithAGuarantee() {
        List<ReplayJob> jobs = NotebookWorkload.generate(teams(), FROM, TO, 6, 1);
        // 2 teams x 5 days x 6 on average
        assertThat(jobs).hasSizeBetween(30, 100);
        assertThat(jobs).extracting(ReplayJob::team).containsOnly("a", "b");
        assertThat(jobs).extracting(ReplayJob::name).doesNotHaveDuplicates();
        long leftOpen = 0;
        for (ReplayJob nb : jobs) {
            ZonedDateTime open = Instant.ofEpochMilli(nb.submitMs()).atZone(ZoneOffset.UTC);
            assertThat(open.getDayOfWeek()).isNotIn(DayOfWeek.SATURDAY, DayOfWeek.SUNDAY);
            assertThat(open.getHour()).isBetween(9, 16);
            assertThat(nb.kind()).isEqualTo(JobKind.NOTEBOOK);
            assertThat(nb.preemptible()).isFalse();
            assertThat(nb.gpu()).isIn(new GpuRequest.WholeGpus(1), new GpuRequest.Fraction(500, 500, 1));
            long profiled = nb.profile().periods().stream()
                    .mapToLong(IdleProfile.Period::ms)
                    .sum();
            assertThat(profiled).as(nb.name()).isEqualTo(nb.durationMs());
            assertThat(nb.profile().periods().get(0).utilisation()).isEqualTo(1);
            ZonedDateTime closed = open.plusNanos(nb.durationMs() * 1_000_000);
            if (closed.getHour() == 9 && closed.getMinute() == 0 && nb.durationMs() > 10 * 3_600_000L) {
                leftOpen++;
            }
        }
        assertThat(jobs).isSortedAccordingTo((x, y) -> Long.compare(x.submitMs(), y.submitMs()));
        assertThat(leftOpen).isPositive();
        // Friday's notebooks left open stay idle over the weekend, to Monday 09:00
        assertThat(jobs).anyMatch(nb -> nb.durationMs() > 60 * 3_600_000L);
    }

    @Test
    void aRateThatIsNotAPositiveNumberIsRefused() {
        assertThatThrownBy(() -> NotebookWorkload.generate(teams(), FROM, TO, 0, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("notebook rate must be a number above 0");
    }
}
