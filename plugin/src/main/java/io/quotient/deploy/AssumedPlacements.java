package io.quotient.deploy;

import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Placements decided but not yet written to their records, as kube-scheduler "assumes" a pod on its node before
 * the binding is written. A new job's placement is written after the {@link DecisionLock} is released, so the
 * lock is held for the decision only, not for an API round trip; until its record says so, the next decisions see
 * the capacity as taken through this map. A placement is settled when its write succeeded or failed: on failure
 * the job simply stays undecided in its record and the re-queue places it.
 *
 * <p>Only lone placements of new jobs are assumed. A new job decided to wait is tracked too while its record is
 * written ({@link #recording}), so that a re-queue in that instant does not miss it. A decision that evicts,
 * moves or reconciles waits until nothing is assumed or being recorded ({@link #awaitNone}), so it only ever acts
 * on written records. Nothing here is durable: a crash loses an assumed placement together with its unwritten
 * record; the caller gets no answer and nothing was promised.
 */
public final class AssumedPlacements {

    private static final Logger LOG = LoggerFactory.getLogger(AssumedPlacements.class);

    private final Map<JobId, PlacedJob> assumed = new HashMap<>();
    private final Set<JobId> recording = new HashSet<>();
    private final Duration maxWait;

    /**
     * @param maxWait how long a decision waits for assumed placements to be written before it goes on without
     *                them (a stuck API call; the records' optimistic concurrency still refuses a second placement)
     */
    public AssumedPlacements(Duration maxWait) {
        this.maxWait = maxWait;
    }

    /** A new job decided to wait is being recorded, until {@link #settle}. */
    public synchronized void recording(JobId job) {
        recording.add(job);
    }

    /** Whether the job's placement is assumed or its record is being written. */
    public synchronized boolean inFlight(JobId job) {
        return assumed.containsKey(job) || recording.contains(job);
    }

    /** The job is placed there from now on, for every decision, until {@link #settle}. */
    public synchronized void assume(PlacedJob placement) {
        assumed.put(placement.spec().id(), placement);
    }

    /** The record's write is done (or failed): the record tells from now on. */
    public synchronized void settle(JobId job) {
        assumed.remove(job);
        recording.remove(job);
        notifyAll();
    }

    /** The assumed placements by job, as of now. */
    public synchronized Map<JobId, PlacedJob> current() {
        return Map.copyOf(assumed);
    }

    /**
     * Waits until every assumed placement and record being written is settled; returns false (and logs) when that
     * took over the maximum.
     */
    public synchronized boolean awaitNone() {
        long deadline = System.nanoTime() + maxWait.toNanos();
        while (!assumed.isEmpty() || !recording.isEmpty()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                LOG.warn(
                        "records of jobs {} are still being written after {} s; deciding without waiting longer"
                                + " (their assumed GPUs stay counted as taken)",
                        inFlightJobs(),
                        maxWait.toSeconds());
                return false;
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    private Set<JobId> inFlightJobs() {
        Set<JobId> jobs = new HashSet<>(assumed.keySet());
        jobs.addAll(recording);
        return jobs;
    }
}
