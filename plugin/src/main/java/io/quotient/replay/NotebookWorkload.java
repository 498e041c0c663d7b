package io.quotient.replay;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobKind;
import io.quotient.core.model.Team;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * The synthetic interactive-notebook workload ({@code replay --add-notebooks RATE}, docs/replay.md, "Synthetic
 * notebooks"), seeded: the same teams, span, rate and seed give the same notebooks. Per team with a guarantee, on
 * each working day (Monday to Friday, UTC) of the span, a Poisson number of notebooks (mean RATE) opens at times
 * uniform in working hours (09:00-17:00). A notebook asks 1 GPU (three in four) or half of one, is not preemptible
 * (the service's notebook default, so it runs within its team's guarantee) and autosaves every 2 minutes (Jupyter's
 * default), its checkpoint. While its user works (lognormal, median 2 h, σ 0.75, within 15 min..10 h) it alternates busy stretches (exponential,
 * mean 15 min) and idle ones (thinking, reading, meetings: exponential, mean 30 min), each at least a minute; then
 * two in five are left open,
 * idle, until 09:00 of the next working day (overnight, or over the weekend), and the rest are closed.
 */
public final class NotebookWorkload {

    /** The most notebooks a team opens a working day on average: beyond, e^-mean is below what a double holds. */
    public static final int MAX_RATE = 500;

    /** Working hours, UTC: notebooks open from 09:00 to 17:00; one left open is closed at 09:00. */
    static final int FROM_HOUR = 9;

    static final int TO_HOUR = 17;
    static final double LEFT_OPEN = 0.4;
    static final double WHOLE_GPU = 0.75;
    static final long CHECKPOINT_MS = Duration.ofMinutes(2).toMillis();
    static final double WORK_MEDIAN_HOURS = 2;
    static final double WORK_SIGMA = 0.75;
    static final double BUSY_MEAN_MINUTES = 15;
    static final double IDLE_MEAN_MINUTES = 30;

    private NotebookWorkload() {}

    /**
     * The notebooks opened in {@code fromMs}..{@code toMs}, sorted by submission.
     *
     * @param teams the configured teams; only those guaranteed GPUs get notebooks (a non-preemptible job of a team
     *              guaranteed nothing could never run)
     * @param rate  mean notebooks per team and working day
     */
    public static List<ReplayJob> generate(Map<String, Team> teams, long fromMs, long toMs, double rate, long seed) {
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("the notebook rate must be a number above 0, was " + rate);
        }
        Set<String> names = new TreeSet<>(); // name order: the same notebooks whatever the map's order
        teams.forEach((name, team) -> {
            if (team.guaranteedMilli() > 0) {
                names.add(name);
            }
        });
        List<ReplayJob> jobs = new ArrayList<>();
        for (String team : names) {
            // one stream per team, so that adding a team leaves the others' notebooks alone
            Random random = new Random(seed * 1_000_003L + team.hashCode());
            int n = 0;
            LocalDate last = Instant.ofEpochMilli(toMs).atZone(ZoneOffset.UTC).toLocalDate();
            for (LocalDate day =
                            Instant.ofEpochMilli(fromMs).atZone(ZoneOffset.UTC).toLocalDate();
                    !day.isAfter(last);
                    day = day.plusDays(1)) {
                if (!working(day)) {
                    continue;
                }
                int count = poisson(random, rate);
                for (int i = 0; i < count; i++) {
                    long openMs = day.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli()
                            + FROM_HOUR * 3_600_000L
                            + (long) (random.nextDouble() * (TO_HOUR - FROM_HOUR) * 3_600_000L);
                    ReplayJob notebook = notebook(random, team, "nb-" + team + "-" + n++, openMs, day);
                    if (openMs >= fromMs && openMs < toMs) {
                        jobs.add(notebook);
                    }
                }
            }
        }
        jobs.sort(Comparator.comparingLong(ReplayJob::submitMs).thenComparing(ReplayJob::name));
        return jobs;
    }

    /** The trace and the notebooks together, sorted by submission (then name) as {@link JobsFile} sorts a trace. */
    public static List<ReplayJob> merged(List<ReplayJob> trace, List<ReplayJob> notebooks) {
        List<ReplayJob> all = new ArrayList<>(trace);
        all.addAll(notebooks);
        all.sort(Comparator.comparingLong(ReplayJob::submitMs).thenComparing(ReplayJob::name));
        return all;
    }

    private static ReplayJob notebook(Random random, String team, String name, long openMs, LocalDate day) {
        long workMs = (long) Math.min(
                10 * 3_600_000.0,
                Math.max(15 * 60_000.0, WORK_MEDIAN_HOURS * 3_600_000 * Math.exp(WORK_SIGMA * random.nextGaussian())));
        List<IdleProfile.Period> periods = new ArrayList<>();
        long filled = 0;
        boolean busy = true;
        while (filled < workMs) {
            double mean = (busy ? BUSY_MEAN_MINUTES : IDLE_MEAN_MINUTES) * 60_000;
            long ms = Math.min(workMs - filled, Math.max(60_000, (long) (-mean * Math.log(1 - random.nextDouble()))));
            periods.add(new IdleProfile.Period(ms, busy ? 1 : 0));
            filled += ms;
            busy = !busy;
        }
        long durationMs = workMs;
        if (random.nextDouble() < LEFT_OPEN) {
            long closedMs = nextWorkingMorning(day)
                            .atStartOfDay(ZoneOffset.UTC)
                            .toInstant()
                            .toEpochMilli()
                    + FROM_HOUR * 3_600_000L;
            long tail = Math.max(60_000, closedMs - (openMs + workMs));
            periods.add(new IdleProfile.Period(tail, 0));
            durationMs += tail;
        }
        GpuRequest gpu =
                random.nextDouble() < WHOLE_GPU ? new GpuRequest.WholeGpus(1) : new GpuRequest.Fraction(500, 500, 1);
        return new ReplayJob(
                name,
                team,
                openMs,
                durationMs,
                gpu,
                0,
                0,
                Set.of(),
                1,
                JobKind.NOTEBOOK,
                0,
                false,
                CHECKPOINT_MS,
                Duration.ZERO,
                new IdleProfile(periods));
    }

    private static boolean working(LocalDate day) {
        return day.getDayOfWeek() != DayOfWeek.SATURDAY && day.getDayOfWeek() != DayOfWeek.SUNDAY;
    }

    private static LocalDate nextWorkingMorning(LocalDate day) {
        LocalDate next = day.plusDays(1);
        while (!working(next)) {
            next = next.plusDays(1);
        }
        return next;
    }

    /** Knuth's method: fine for the small means of notebooks per team and day, up to {@link #MAX_RATE}. */
    private static int poisson(Random random, double mean) {
        double limit = Math.exp(-Math.min(mean, MAX_RATE));
        double p = 1;
        int k = 0;
        do {
            k++;
            p *= random.nextDouble();
        } while (p > limit);
        return k - 1;
    }
}
