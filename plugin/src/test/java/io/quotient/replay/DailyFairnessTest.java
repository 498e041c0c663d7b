package io.quotient.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.Team;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Jain's index per day, against values computed by hand. */
class DailyFairnessTest {

    private static final long T0 = 1_506_816_000_000L; // 2017-10-01T00:00:00Z
    private static final long HOUR = 3_600_000;

    @Test
    void theDaysIndexIsThatOfTheDaysIntegralsNotTheMeanOfItsHours() {
        HourlyFairness f = new HourlyFairness(List.of("a", "b"));
        // day 1: a holds 4 for 12 h, then a and b hold 2 each; both are entitled to 2 throughout
        f.integrate(T0, T0 + 12 * HOUR, new long[] {4000, 0}, new long[] {2000, 2000});
        f.integrate(T0 + 12 * HOUR, T0 + 24 * HOUR, new long[] {2000, 2000}, new long[] {2000, 2000});
        // day 2: even for 12 h; day 3: nobody entitled to anything
        f.integrate(T0 + 24 * HOUR, T0 + 36 * HOUR, new long[] {2000, 2000}, new long[] {2000, 2000});
        f.integrate(T0 + 48 * HOUR, T0 + 50 * HOUR, new long[] {0, 0}, new long[] {0, 0});
        f.end();
        // day 1: x_a = (4·12 + 2·12) / (2·24) = 1.5, x_b = 0.5: (2)² / (2 · (2.25 + 0.25)) = 0.8
        assertThat(f.days())
                .containsExactly(
                        new DayFairness(LocalDate.of(2017, 10, 1), 0.8),
                        new DayFairness(LocalDate.of(2017, 10, 2), 1.0),
                        new DayFairness(LocalDate.of(2017, 10, 3), Double.NaN));
        // the hours: 12 of x = (2, 0), index 0.5, and 24 of 1, over 36 hours with an entitlement
        assertThat(f.meanIndex()).isEqualTo((12 * 0.5 + 24) / 36);
    }

    @Test
    void aReplayReportsEachDaysIndex() {
        // 2 GPUs; a and b guaranteed 1 each. a takes both for 36 h from midnight; b asks 1 GPU at noon and, under
        // borrow (nothing taken back), waits until a finishes, then runs 24 h.
        Map<String, Team> teams = new LinkedHashMap<>();
        teams.put("a", Team.of("a", 1));
        teams.put("b", Team.of("b", 1));
        List<ReplayJob> jobs = new ArrayList<>();
        jobs.add(ReplayJob.wholeGpus("a-0", "a", T0, 36 * HOUR, 1));
        jobs.add(ReplayJob.wholeGpus("a-1", "a", T0, 36 * HOUR, 1));
        jobs.add(ReplayJob.wholeGpus("b-0", "b", T0 + 12 * HOUR, 24 * HOUR, 1));
        ReplayResult r = Replay.run(Baselines.named("borrow"), ClusterSize.uniform(1, 2), teams, jobs);
        // day 1: a held 2 × 24 against a share of 2 × 12 + 1 × 12 (x = 48/36); b held nothing of 1 × 12 (x = 0):
        // (4/3)² / (2 · 16/9) = 0.5
        // day 2: a held 2 × 12 of 1 × 12 (x = 2); b held 1 × 12 of 1 × 24 (x = 0.5): 2.5² / (2 · 4.25) = 25/34
        // day 3: b alone until noon: 1
        assertThat(r.jainPerDay())
                .containsExactly(
                        new DayFairness(LocalDate.of(2017, 10, 1), 0.5),
                        new DayFairness(LocalDate.of(2017, 10, 2), 25.0 / 34),
                        new DayFairness(LocalDate.of(2017, 10, 3), 1.0));
        assertThat(ReplayJson.of(List.of(r)))
                .contains("\"jainFairnessPerDay\" : [ {\n    \"day\" : \"2017-10-01\",\n    \"jain\" : 0.5\n  }");
    }
}
