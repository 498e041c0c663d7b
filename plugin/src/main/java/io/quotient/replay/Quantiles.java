package io.quotient.replay;

import java.util.Arrays;
import java.util.Collection;

/** p50, p95 and p99 (nearest rank) of a sample, in seconds; NaN for an empty sample. */
public record Quantiles(double p50, double p95, double p99) {

    static Quantiles ofMillis(Collection<Long> millis) {
        double[] sorted =
                millis.stream().mapToDouble(ms -> ms / 1000.0).sorted().toArray();
        return new Quantiles(rank(sorted, 0.50), rank(sorted, 0.95), rank(sorted, 0.99));
    }

    private static double rank(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int index = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    @Override
    public String toString() {
        return Arrays.toString(new double[] {p50, p95, p99});
    }
}
