package io.quotient.sim;

/**
 * Samples of one run (or the mean of several) by arrived % rounded to a whole percent, 0..{@link #MAX_PCT}:
 * each bucket averages the samples that fell in it.
 */
public final class Curve {

    public static final int MAX_PCT = 130;

    /** One bucket's averages. */
    public record Point(int arrivedPct, double unallocatedGpuPct, double fragAmountPct, double fragRatioPct) {}

    private final double[] unallocated = new double[MAX_PCT + 1];
    private final double[] fragAmount = new double[MAX_PCT + 1];
    private final double[] fragRatio = new double[MAX_PCT + 1];
    private final int[] samples = new int[MAX_PCT + 1];

    void record(double arrivedPct, double unallocatedPct, double fragAmountPct, double fragRatioPct) {
        long bucket = Math.round(arrivedPct);
        if (bucket < 0 || bucket > MAX_PCT) {
            return;
        }
        int b = (int) bucket;
        unallocated[b] += unallocatedPct;
        fragAmount[b] += fragAmountPct;
        fragRatio[b] += fragRatioPct;
        samples[b]++;
    }

    /** Whether any sample fell in the bucket. */
    public boolean has(int arrivedPct) {
        return samples[arrivedPct] > 0;
    }

    /**
     * The bucket's averages; an empty bucket (a single large pod jumped over it) takes the nearest
     * bucket below that has samples, the state the cluster was in when that arrival level was passed.
     */
    public Point at(int arrivedPct) {
        int b = arrivedPct;
        while (b > 0 && samples[b] == 0) {
            b--;
        }
        int n = Math.max(1, samples[b]);
        return new Point(arrivedPct, unallocated[b] / n, fragAmount[b] / n, fragRatio[b] / n);
    }

    /** The bucket-wise mean of several runs' curves (buckets no run reached stay empty). */
    public static Curve mean(Iterable<Curve> curves) {
        Curve mean = new Curve();
        for (Curve c : curves) {
            for (int b = 0; b <= MAX_PCT; b++) {
                if (c.has(b)) {
                    Point p = c.at(b);
                    mean.record(b, p.unallocatedGpuPct(), p.fragAmountPct(), p.fragRatioPct());
                }
            }
        }
        return mean;
    }
}
