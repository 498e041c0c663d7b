package io.quotient.replay;

import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PendingJob;
import io.quotient.core.model.PlacedJob;
import java.time.Instant;

/**
 * One job's life in a replay: waiting, running a segment, stopped (preempted or moved) and resumed from its last
 * checkpoint, finished. Work is counted in GPU milli × milliseconds, exactly: what it delivers is its trace work plus
 * what preemptions threw away.
 */
public final class JobRun {

    private final ReplayJob job;
    private final JobSpec spec;
    private final long demandMilli;
    /** The job as it waits, queued at its submission however often it is re-queued: built once, read per decision. */
    private final PendingJob pending;

    private long remainingMs;
    private PlacedJob placement;
    private long segmentStartMs = -1;
    private long firstStartMs = -1;
    private long finishMs = -1;
    private int epoch;
    private int preemptions;
    private int moves;
    private long lostMilliMs;
    private long deliveredMilliMs;

    JobRun(ReplayJob job, JobSpec spec, long demandMilli) {
        this.job = job;
        this.spec = spec;
        this.demandMilli = demandMilli;
        this.remainingMs = job.durationMs();
        this.pending = new PendingJob(spec, Instant.ofEpochMilli(job.submitMs()));
    }

    /** The job as the scheduler sees it while it waits. */
    PendingJob pending() {
        return pending;
    }

    /** Starts a segment: it then finishes at {@code now + remaining} unless stopped before. */
    void start(PlacedJob where, long nowMs) {
        placement = where;
        segmentStartMs = nowMs;
        if (firstStartMs < 0) {
            firstStartMs = nowMs;
        }
        epoch++;
    }

    /**
     * Stops the running segment: the work since the last checkpoint is lost, the rest is kept.
     *
     * @return the GPU milli × ms lost
     */
    long stop(long nowMs, boolean moved) {
        long ran = nowMs - segmentStartMs;
        long checkpoint = job.checkpointMs();
        long kept = checkpoint > 0 ? Math.min(ran / checkpoint * checkpoint, remainingMs) : 0;
        long held = placement.gpuMilli();
        long lost = (ran - kept) * held;
        deliveredMilliMs += ran * held;
        lostMilliMs += lost;
        remainingMs -= kept;
        if (moved) {
            moves++;
        } else {
            preemptions++;
        }
        placement = null;
        segmentStartMs = -1;
        epoch++;
        return lost;
    }

    void finish(long nowMs) {
        deliveredMilliMs += (nowMs - segmentStartMs) * placement.gpuMilli();
        remainingMs = 0;
        finishMs = nowMs;
        placement = null;
        segmentStartMs = -1;
        epoch++;
    }

    public ReplayJob job() {
        return job;
    }

    public JobSpec spec() {
        return spec;
    }

    /** The GPU milli it holds when placed (what it waits for). */
    public long demandMilli() {
        return demandMilli;
    }

    public boolean running() {
        return placement != null;
    }

    public boolean finished() {
        return finishMs >= 0;
    }

    public PlacedJob placement() {
        return placement;
    }

    long completesAtMs() {
        return segmentStartMs + remainingMs;
    }

    int epoch() {
        return epoch;
    }

    public long firstStartMs() {
        return firstStartMs;
    }

    public long finishMs() {
        return finishMs;
    }

    public int preemptions() {
        return preemptions;
    }

    public int moves() {
        return moves;
    }

    public long lostMilliMs() {
        return lostMilliMs;
    }

    public long deliveredMilliMs() {
        return deliveredMilliMs;
    }

    @Override
    public String toString() {
        return job.name() + " of " + job.team() + " (" + demandMilli + " milli, preemptible " + spec.preemptible()
                + (running() ? ", running" : finished() ? ", finished" : ", waiting") + ")";
    }
}
