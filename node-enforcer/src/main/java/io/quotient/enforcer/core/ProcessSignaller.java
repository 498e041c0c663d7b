package io.quotient.enforcer.core;

/**
 * Port: signals a process, but only if the PID still is {@code expected} (same start time, same
 * cgroup) at the moment of the signal.
 */
public interface ProcessSignaller {

    enum Result {
        /** The signal was sent to the expected process. */
        SIGNALLED,
        /** The process no longer exists. */
        GONE,
        /** Another process now has the PID (or the process moved cgroup): nothing was sent. */
        IDENTITY_CHANGED,
        /** The signal was refused (no CAP_KILL, ...). */
        FAILED,
        /** Dry-run: nothing was sent. */
        DRY_RUN
    }

    /** SIGTERM. */
    Result terminate(ProcessIdentity expected);

    /** SIGKILL. */
    Result kill(ProcessIdentity expected);
}
