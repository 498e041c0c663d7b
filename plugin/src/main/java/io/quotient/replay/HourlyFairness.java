package io.quotient.replay;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Jain's fairness index of allocation over entitlement, per hour of simulated time: for each team entitled to
 * something in the hour, x = GPU-time held / GPU-time of its fair share (the share the scheduling core computes from
 * the guarantees, weights and demands); the hour's index is (Σx)² / (n · Σx²), 1 when every team got the same
 * proportion of its entitlement. Per day (UTC) the same index of the day's integrals ({@link DayFairness}): a team
 * short of its share in one hour and beyond it in the next is treated fairly over the day. Also keeps each team's mean
 * GPUs per hour (for the charts).
 */
final class HourlyFairness {

    static final long HOUR_MS = 3_600_000;
    static final long DAY_MS = 24 * HOUR_MS;

    private final List<String> teams;
    private long hour = Long.MIN_VALUE;
    private final double[] heldMs;
    private final double[] shareMs;
    /** The part of the hour under way the replay covered: the first and the last hour are seldom whole. */
    private long coveredMs;
    /** Σ index × covered time over the hours with an entitlement, and Σ covered time over them. */
    private double weightedIndexSum;

    private long weightMs;
    private long day = Long.MIN_VALUE;
    private final double[] dayHeldMs;
    private final double[] dayShareMs;
    private final List<DayFairness> days = new ArrayList<>();
    private final Map<String, List<Double>> gpusPerHour = new LinkedHashMap<>();
    private final List<Long> hourStarts = new ArrayList<>();

    HourlyFairness(List<String> teams) {
        this.teams = List.copyOf(teams);
        this.heldMs = new double[teams.size()];
        this.shareMs = new double[teams.size()];
        this.dayHeldMs = new double[teams.size()];
        this.dayShareMs = new double[teams.size()];
        teams.forEach(t -> gpusPerHour.put(t, new ArrayList<>()));
    }

    /** [fromMs, toMs) with each team holding {@code held[i]} and entitled to {@code share[i]} milli. */
    void integrate(long fromMs, long toMs, long[] held, long[] share) {
        long t = fromMs;
        while (t < toMs) {
            long h = Math.floorDiv(t, HOUR_MS);
            if (h != hour) {
                closeHour();
                hour = h;
            }
            long d = Math.floorDiv(t, DAY_MS);
            if (d != day) {
                closeDay();
                day = d;
            }
            long end = Math.min(toMs, (h + 1) * HOUR_MS);
            long dt = end - t;
            coveredMs += dt;
            for (int i = 0; i < held.length; i++) {
                heldMs[i] += (double) held[i] * dt;
                shareMs[i] += (double) share[i] * dt;
                dayHeldMs[i] += (double) held[i] * dt;
                dayShareMs[i] += (double) share[i] * dt;
            }
            t = end;
        }
    }

    /** The replay ended: the hour and the day under way are closed. */
    void end() {
        closeHour();
        closeDay();
    }

    private void closeDay() {
        if (day == Long.MIN_VALUE) {
            return;
        }
        days.add(new DayFairness(LocalDate.ofEpochDay(day), jain(dayHeldMs, dayShareMs)));
        Arrays.fill(dayHeldMs, 0);
        Arrays.fill(dayShareMs, 0);
        day = Long.MIN_VALUE;
    }

    /** Jain's index of held / share over the teams with a share; NaN when none has one. */
    private static double jain(double[] held, double[] share) {
        double sum = 0;
        double squares = 0;
        int n = 0;
        for (int i = 0; i < held.length; i++) {
            if (share[i] > 0) {
                double x = held[i] / share[i];
                sum += x;
                squares += x * x;
                n++;
            }
        }
        return n == 0 ? Double.NaN : squares == 0 ? 0 : sum * sum / (n * squares);
    }

    private void closeHour() {
        if (hour == Long.MIN_VALUE) {
            return;
        }
        for (int i = 0; i < teams.size(); i++) {
            gpusPerHour.get(teams.get(i)).add(heldMs[i] / 1000.0 / HOUR_MS);
        }
        double index = jain(heldMs, shareMs);
        if (!Double.isNaN(index)) {
            // weighed by the time covered, so that a slice starting at 12:59:59 does not count its first second
            // as a whole hour, nor a replay ending at 14:00:02 its last two seconds
            weightedIndexSum += index * coveredMs;
            weightMs += coveredMs;
        }
        coveredMs = 0;
        Arrays.fill(heldMs, 0);
        Arrays.fill(shareMs, 0);
        hourStarts.add(hour * HOUR_MS);
        hour = Long.MIN_VALUE;
    }

    /**
     * The mean of the hourly indexes, each hour weighed by the part of it the replay covered (every hour but the first
     * and the last is whole); NaN when no team was ever entitled to anything.
     */
    double meanIndex() {
        return weightMs == 0 ? Double.NaN : weightedIndexSum / weightMs;
    }

    /** Jain's index of each day the replay spanned, in order. */
    List<DayFairness> days() {
        return days;
    }

    Map<String, List<Double>> gpusPerHour() {
        return gpusPerHour;
    }

    List<Long> hourStarts() {
        return hourStarts;
    }
}
