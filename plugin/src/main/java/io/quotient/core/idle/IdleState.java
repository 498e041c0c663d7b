package io.quotient.core.idle;

/** Where a watched job stands with its team's idle policy. */
public enum IdleState {
    /** Busy, or idle for less than the policy's {@code warnAfter}: nothing to say. */
    BUSY,
    /** Idle for {@code warnAfter} or longer, and kept (not yet {@code after}, or nobody waits when that matters). */
    WARNED,
    /** Idle for {@code after} or longer and someone waits (or the policy does not ask): its GPUs are released. */
    RELEASE
}
