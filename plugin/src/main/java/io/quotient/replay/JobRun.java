package io.quotient.replay;

import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PendingJob;
import io.quotient.core.model.PlacedJob;
import java.time.Instant;

/**
 * One job's life in a replay: waiting, running a segment, stopped (preempted or moved) and resumed from its last
 * checkpoint, finished, or stopped for good by its team's idle policy. Work is counted in GPU milli × milliseconds,
 * exactly: what it delivers plus what an idle stop left undone is its trace work plus what preemptions threw away.
 * Its idle profile is followed over its running time so far (every segment, lost work included), so a job resumed
 * after a preemption takes its profile up where it left it, and an idle stretch ends however often it is preempted.
 */
public final class JobRun {

    private final ReplayJob job;
    private final JobSpec spec;
    private final long demandMilli;
    /** Its team's idle threshold: running time at or under it counts as idle. */
    private final double idleThreshold;
    /**
     * The job as it waits, queued at its submission however often reclaim re-queues it, or at its last re-queueing
     * idle release: built when that changes, read per decision.
     */
    private PendingJob pending;

    private long remainingMs;
    /** Its running time before the segment, over every segment (its profile's position when the segment started). */
    private long ranBeforeMs;

    private PlacedJob placement;
    private long segmentStartMs = -1;
    private long firstStartMs = -1;
    private long finishMs = -1;
    private int epoch;
    private int preemptions;
    private int moves;
    private long lostMilliMs;
    private long deliveredMilliMs;
    private final IdleTally idle = new IdleTally();

    JobRun(ReplayJob job, JobSpec spec, long demandMilli) {
        this(job, spec, demandMilli, 0);
    }

    JobRun(ReplayJob job, JobSpec spec, long demandMilli, double idleThreshold) {
        this.job = job;
        this.spec = spec;
        this.demandMilli = demandMilli;
        this.idleThreshold = idleThreshold;
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
        endSegment(ran, held);
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
        endSegment(nowMs - segmentStartMs, placement.gpuMilli());
        remainingMs = 0;
        finishMs = nowMs;
        placement = null;
        segmentStartMs = -1;
        epoch++;
    }

    /**
     * Its team's idle policy released its GPUs now: counts the GPU-time the policy returns (the rest of the idle
     * stretch it was in, within its remaining running time) and, when it is stopped for good ({@code stop}), ends it
     * with its remaining work undone; a job preempted instead is then stopped as any preemption ({@link #stop}).
     */
    void releasedIdle(long nowMs, boolean stopped) {
        long at = progressAt(nowMs);
        long held = placement.gpuMilli();
        long ran = nowMs - segmentStartMs;
        long left = remainingMs - ran;
        idle.released((job.profile().idleStretchEnd(at, idleThreshold, at + left) - at) * held, stopped);
        if (!stopped) {
            return;
        }
        endSegment(ran, held);
        idle.stoppedUndone((remainingMs - ran) * held);
        remainingMs = 0;
        finishMs = -1;
        placement = null;
        segmentStartMs = -1;
        epoch++;
        idle.stoppedAt(nowMs);
    }

    /**
     * Its team's idle policy released and re-queued it: it waits as of {@code requeuedAt}, the instant the core gave
     * ({@link io.quotient.core.idle.IdleVerdict#requeuedAt}), no longer as of its submission.
     */
    void requeuedAfterIdle(Instant requeuedAt) {
        pending = new PendingJob(spec, requeuedAt);
    }

    /** Its GPUs were the ones an idle job's release freed for it (it was that release's waiter). */
    void waitedForIdle() {
        idle.waiter();
    }

    /** Where in its profile the job is at {@code nowMs} (it runs): its running time so far. */
    long progressAt(long nowMs) {
        return ranBeforeMs + (nowMs - segmentStartMs);
    }

    long segmentStartMs() {
        return segmentStartMs;
    }

    /** A running segment of {@code ran} ms on {@code held} GPU milli ends: delivered, and the idle part of it. */
    private void endSegment(long ran, long held) {
        deliveredMilliMs += ran * held;
        idle.allocatedIdle(job.profile().msAtOrUnder(ranBeforeMs, ranBeforeMs + ran, idleThreshold) * held);
        ranBeforeMs += ran;
    }

    /** What the idle policy did to it and what it held idle. */
    public IdleTally idle() {
        return idle;
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

    /** Finished, or stopped for good by its team's idle policy: it will not run again. */
    public boolean ended() {
        return finished() || idle.stopped();
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
                + (running()
                        ? ", running"
                        : finished() ? ", finished" : idle.stopped() ? ", stopped idle" : ", waiting")
                + ")";
    }
}
