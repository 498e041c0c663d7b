package io.quotient.replay;

/**
 * What one job held idle and what its team's idle policy did to it, in GPU milli × milliseconds: allocated while its
 * profile was at or under its team's threshold, returned by releases (the rest of the idle stretch each release cut
 * short), and left undone by an idle stop.
 */
public final class IdleTally {

    private long allocatedIdleMilliMs;
    private long returnedMilliMs;
    private long stoppedMilliMs;
    private int stops;
    private int preemptions;
    private long stoppedAtMs = -1;
    private boolean waiter;

    void allocatedIdle(long milliMs) {
        allocatedIdleMilliMs += milliMs;
    }

    void released(long returnedMilliMs, boolean stopped) {
        this.returnedMilliMs += returnedMilliMs;
        if (stopped) {
            stops++;
        } else {
            preemptions++;
        }
    }

    void stoppedUndone(long milliMs) {
        stoppedMilliMs += milliMs;
    }

    void stoppedAt(long ms) {
        stoppedAtMs = ms;
    }

    void waiter() {
        waiter = true;
    }

    /** GPU-time allocated while the job's profile was at or under its team's idle threshold. */
    public long allocatedIdleMilliMs() {
        return allocatedIdleMilliMs;
    }

    /** GPU-time its releases gave back: what it would still have held idle. */
    public long returnedMilliMs() {
        return returnedMilliMs;
    }

    /** Its work left undone when an idle stop ended it (not delivered). */
    public long stoppedMilliMs() {
        return stoppedMilliMs;
    }

    public int stops() {
        return stops;
    }

    public int preemptions() {
        return preemptions;
    }

    public boolean stopped() {
        return stoppedAtMs >= 0;
    }

    public long stoppedAtMs() {
        return stoppedAtMs;
    }

    /** Whether an idle release freed GPUs for it (it was the release's waiter). */
    public boolean waitedForIdle() {
        return waiter;
    }
}
