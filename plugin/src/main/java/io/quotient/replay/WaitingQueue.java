package io.quotient.replay;

import io.quotient.core.model.JobId;
import io.quotient.core.model.PendingJob;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The replay's waiting jobs in the order they came to wait, with each job's {@link PendingJob} kept beside it in an
 * array in that order: every decision hands the whole queue to the scheduler ({@link #pending}), and the queue,
 * thousands of jobs on a busy cluster, changes by a few jobs per decision, so the snapshot's list is copied from the
 * array (and kept until the queue changes) instead of read job by job from a linked map.
 */
final class WaitingQueue {

    private final Map<JobId, JobRun> byId = new HashMap<>();
    private JobRun[] runs = new JobRun[64];
    private PendingJob[] pending = new PendingJob[64];
    private int size;
    /** The queue's pending jobs as last handed out; null once the queue changed since. */
    private List<PendingJob> handedOut;

    /** Adds the job at the end; it waits as its {@link JobRun#pending()} says, which must not change while it waits. */
    void add(JobRun run) {
        JobId id = run.spec().id();
        if (byId.putIfAbsent(id, run) != null) {
            throw new IllegalArgumentException("job " + id + " waits already");
        }
        if (size == runs.length) {
            runs = Arrays.copyOf(runs, size * 2);
            pending = Arrays.copyOf(pending, size * 2);
        }
        runs[size] = run;
        pending[size] = run.pending();
        size++;
        handedOut = null;
    }

    /** Removes the job; returns it, or null when it was not waiting. */
    JobRun remove(JobId id) {
        JobRun run = byId.remove(id);
        if (run == null) {
            return null;
        }
        // a scan of references, not of the jobs: cheap beside reading every job of the queue at every decision
        int at = size - 1;
        while (runs[at] != run) {
            at--;
        }
        System.arraycopy(runs, at + 1, runs, at, size - at - 1);
        System.arraycopy(pending, at + 1, pending, at, size - at - 1);
        size--;
        runs[size] = null;
        pending[size] = null;
        handedOut = null;
        return run;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    /** The waiting jobs' pending form, in queue order (an immutable list, the same one until the queue changes). */
    List<PendingJob> pending() {
        if (handedOut == null) {
            handedOut = List.of(Arrays.copyOf(pending, size));
        }
        return handedOut;
    }

    /** The waiting jobs in queue order (a read-only view: valid until the queue changes). */
    Collection<JobRun> runs() {
        return Collections.unmodifiableList(Arrays.asList(runs).subList(0, size));
    }
}
