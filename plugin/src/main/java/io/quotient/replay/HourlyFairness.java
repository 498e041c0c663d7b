package io.quotient.replay;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Jain's fairness index of allocation over entitlement, per hour of simulated time: for each team entitled to
 * something in the hour, x = GPU-time held / GPU-time of its fair share (the share the scheduling core computes from
 * the guarantees, weights and demands); the hour's index is (Σx)² / (n · Σx²), 1 when every team got the same
 * proportion of its entitlement. Also keeps each team's mean GPUs per hour (for the charts).
 */
final class HourlyFairness {

    static final long HOUR_MS = 3_600_000;

    private final List<String> teams;
    private long hour = Long.MIN_VALUE;
    private final double[] heldMs;
    private final double[] shareMs;
    private double indexSum;
    private int hours;
    private final Map<String, List<Double>> gpusPerHour = new LinkedHashMap<>();
    private final List<Long> hourStarts = new ArrayList<>();

    HourlyFairness(List<String> teams) {
        this.teams = List.copyOf(teams);
        this.heldMs = new double[teams.size()];
        this.shareMs = new double[teams.size()];
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
            long end = Math.min(toMs, (h + 1) * HOUR_MS);
            long dt = end - t;
            for (int i = 0; i < held.length; i++) {
                heldMs[i] += (double) held[i] * dt;
                shareMs[i] += (double) share[i] * dt;
            }
            t = end;
        }
    }

    void closeHour() {
        if (hour == Long.MIN_VALUE) {
            return;
        }
        double sum = 0;
        double squares = 0;
        int n = 0;
        for (int i = 0; i < teams.size(); i++) {
            gpusPerHour.get(teams.get(i)).add(heldMs[i] / 1000.0 / HOUR_MS);
            if (shareMs[i] > 0) {
                double x = heldMs[i] / shareMs[i];
                sum += x;
                squares += x * x;
                n++;
            }
            heldMs[i] = 0;
            shareMs[i] = 0;
        }
        if (n > 0) {
            indexSum += squares == 0 ? 0 : sum * sum / (n * squares);
            hours++;
        }
        hourStarts.add(hour * HOUR_MS);
        hour = Long.MIN_VALUE;
    }

    /** The mean of the hourly indexes; NaN when no team was ever entitled to anything. */
    double meanIndex() {
        return hours == 0 ? Double.NaN : indexSum / hours;
    }

    Map<String, List<Double>> gpusPerHour() {
        return gpusPerHour;
    }

    List<Long> hourStarts() {
        return hourStarts;
    }
}
