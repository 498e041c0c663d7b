package io.quotient.sim;

/** The outcome of one seeded run: the headline figures at arrived = 100 % and the whole curve. */
public record RunResult(long seed, double unallocatedGpuPctAt100, double fragAmountPctAt100, double fragRatioPctAt100,
                        int scheduledPods, int failedPods, double placementsPerSecond, Curve curve) {
}
