package io.quotient.sim;

/**
 * The outcome of one seeded run: the headline figures at arrived = 100 % and the whole curve.
 *
 * @param firstRefusalArrivedPct the arrived GPU demand, in % of capacity, when the first GPU pod found no node (NaN
 *                               if none did): up to there the run placed everything, so allocation equals arrival;
 *                               what it places after it is what its gaps still take (docs/research/packing.md,
 *                               "Where the fraction traces saturate")
 */
public record RunResult(
        long seed,
        double unallocatedGpuPctAt100,
        double fragAmountPctAt100,
        double fragRatioPctAt100,
        int scheduledPods,
        int failedPods,
        double placementsPerSecond,
        double firstRefusalArrivedPct,
        Curve curve) {

    /** Whether some GPU pod found no node in the run. */
    public boolean refusedAny() {
        return !Double.isNaN(firstRefusalArrivedPct);
    }
}
