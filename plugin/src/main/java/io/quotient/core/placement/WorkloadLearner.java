package io.quotient.core.placement;

import io.quotient.core.cluster.ResourceDemand;
import java.util.HashMap;
import java.util.Map;

/**
 * The target workload learned from the jobs a service sees: the shapes of the last {@link Settings#window()} jobs
 * observed, fitted as the FGD simulator fits a trace's ({@link TargetWorkload#fromCounts}: most frequent shapes
 * covering 95 % of the jobs, model constraints included). Until {@link Settings#minimumSeen()} jobs have been
 * observed it answers the fallback (a built-in typical workload): a handful of jobs says little about the next
 * thousand.
 *
 * <p>Refitted inside {@link #observe} every {@link Settings#refitEvery()} observations, never on reading: the
 * workload then depends only on the sequence of observations (deterministic), and it stays the same instance
 * between refits, so the forecast tables built for it ({@link WasteForecast}) are reused rather than rebuilt for
 * every decision. Memory is bounded by the window (a ring of shapes and their counts). Thread-safe.
 */
public final class WorkloadLearner {

    /**
     * @param window      how many of the most recent jobs are counted
     * @param minimumSeen jobs to observe before the learned workload replaces the fallback
     * @param refitEvery  observations between two fits
     */
    public record Settings(int window, int minimumSeen, int refitEvery) {

        /** A few thousand jobs: as many as a trace's arrivals fill a cluster of a thousand nodes with. */
        public static final Settings DEFAULT = new Settings(4096, 50, 128);

        public Settings {
            if (window < 1 || minimumSeen < 1 || minimumSeen > window || refitEvery < 1) {
                throw new IllegalArgumentException("a workload learner needs a window of 1 or more jobs, a minimum of"
                        + " 1 up to the window and a refit interval of 1 or more, were window=" + window
                        + " minimumSeen=" + minimumSeen + " refitEvery=" + refitEvery);
            }
        }
    }

    private final TargetWorkload fallback;
    private final Settings settings;
    private final TargetWorkload.Shape[] ring;
    private final Map<TargetWorkload.Shape, Integer> counts = new HashMap<>();
    private int size;
    private int next;
    private long seen;
    private long sinceFit;
    private TargetWorkload learned;

    public WorkloadLearner(TargetWorkload fallback, Settings settings) {
        if (fallback == null || settings == null) {
            throw new IllegalArgumentException("a workload learner needs a fallback workload and settings");
        }
        this.fallback = fallback;
        this.settings = settings;
        this.ring = new TargetWorkload.Shape[settings.window()];
    }

    public WorkloadLearner(TargetWorkload fallback) {
        this(fallback, Settings.DEFAULT);
    }

    /** Counts one job's demand (per node: a gang's replica); a demand in GPU MiB must be converted to milli first. */
    public synchronized void observe(ResourceDemand demand) {
        TargetWorkload.Shape shape = TargetWorkload.Shape.of(demand);
        if (size == ring.length) {
            counts.merge(ring[next], -1, (a, b) -> a + b == 0 ? null : a + b);
        } else {
            size++;
        }
        ring[next] = shape;
        next = (next + 1) % ring.length;
        counts.merge(shape, 1, Integer::sum);
        seen++;
        sinceFit++;
        if (size >= settings.minimumSeen() && (learned == null || sinceFit >= refitInterval())) {
            learned = TargetWorkload.fromCounts(counts);
            sinceFit = 0;
        }
    }

    /**
     * Observations until the next fit: half the sample fitted last, up to {@link Settings#refitEvery()}. A young
     * sample changes most with each job, so early fits come often (at 50, 75, 112, ... jobs) and settle to the
     * steady interval once the sample is large.
     */
    private long refitInterval() {
        long fittedSample = Math.min(seen - sinceFit, ring.length);
        return Math.min(settings.refitEvery(), Math.max(1, fittedSample / 2));
    }

    /** The learned workload, or the fallback while too few jobs have been observed. */
    public synchronized TargetWorkload current() {
        return learned == null ? fallback : learned;
    }

    /** Jobs observed so far (also those that left the window). */
    public synchronized long seen() {
        return seen;
    }

    /** Whether {@link #current()} is learned rather than the fallback. */
    public synchronized boolean learned() {
        return learned != null;
    }
}
