package io.quotient.core.idle;

import io.quotient.core.model.JobId;
import io.quotient.core.usage.PodCounterReading;
import io.quotient.core.usage.PodCounters;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the node enforcers' running pod counters into each job's utilisation per report period: busy GPU-seconds
 * over measured GPU-seconds between two readings of the same counters, summed over the job's pods and GPUs. The first
 * reading of a counter covers its whole counting ({@code countingSince} on), so a pod idle since it started is idle
 * from then on, even right after the service started. Counters that did not advance (the same report again, a GPU
 * whose utilisation is not measured: MIG) give no sample: without a figure a job is never taken for idle.
 */
public final class UtilisationSampler {

    private final Map<String, PodCounters> last = new HashMap<>();

    /** The utilisation of every job whose counters advanced since the previous call. */
    public List<JobUtilisation> sample(Collection<PodCounterReading> readings) {
        Map<JobId, double[]> byJob = new LinkedHashMap<>(); // busy, measured
        Map<JobId, Instant> from = new HashMap<>();
        Map<JobId, Instant> to = new HashMap<>();
        Map<String, PodCounters> seen = new HashMap<>();
        for (PodCounterReading r : readings) {
            PodCounters now = r.counters();
            PodCounters before = last.get(r.key());
            seen.put(r.key(), now);
            boolean continues = before != null && now.continues(before);
            double busy = continues ? now.busyGpuSeconds() - before.busyGpuSeconds() : now.busyGpuSeconds();
            double measured = continues ? now.measuredSeconds() - before.measuredSeconds() : now.measuredSeconds();
            if (measured <= 0) {
                continue;
            }
            double[] sums = byJob.computeIfAbsent(r.job(), j -> new double[2]);
            sums[0] += busy;
            sums[1] += measured;
            // the period began where these counters were last read; a counter read first began at its counting
            Instant start = continues
                    ? now.countingSince().plusMillis(Math.round(before.presentSeconds() * 1000))
                    : now.countingSince();
            Instant end = now.countingSince().plusMillis(Math.round(now.presentSeconds() * 1000));
            from.merge(r.job(), start, (a, b) -> a.isAfter(b) ? a : b);
            to.merge(r.job(), end, (a, b) -> a.isAfter(b) ? a : b);
        }
        last.clear();
        last.putAll(seen);
        List<JobUtilisation> samples = new ArrayList<>();
        byJob.forEach((job, sums) -> samples.add(new JobUtilisation(
                job, from.get(job), to.get(job), Math.min(1, Math.max(0, sums[0] / sums[1])))));
        return samples;
    }
}
