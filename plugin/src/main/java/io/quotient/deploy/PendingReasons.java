package io.quotient.deploy;

/**
 * Keeps a pending job's reason readable over time. A preempted job keeps saying that it was preempted, and one whose
 * node was removed says that (users ask "where did my job go?"), while the re-queue updates why it still waits.
 */
public final class PendingReasons {

    static final String PREEMPTED_PREFIX = "Preempted";
    /** A job whose node left the cluster keeps saying so, like a preempted one. */
    static final String NODE_REMOVED_PREFIX = "Node removed";

    private static final String RECORDED_PREFIX = "recorded; ";
    /** The reason of a job recorded on the leader until its first decision (a moment later). */
    static final String AWAITING_DECISION = RECORDED_PREFIX + "waiting for a scheduling decision";
    /** The reason of a job recorded on a follower: the leader's re-queue makes its first decision. */
    static final String AWAITING_LEADER =
            RECORDED_PREFIX + "the leader replica decides its placement on its next re-queue";

    private static final String STILL_WAITING = "; still waiting: ";

    private PendingReasons() {}

    /** Whether a job with this reason has never been decided (so placing it is its first placement, no re-queue). */
    static boolean undecided(String reason) {
        return reason != null && reason.startsWith(RECORDED_PREFIX);
    }

    /** The reason to show after the scheduler said {@code why} about a job whose reason was {@code current}. */
    public static String merge(String current, String why) {
        if (current != null && (current.startsWith(PREEMPTED_PREFIX) || current.startsWith(NODE_REMOVED_PREFIX))) {
            int cut = current.indexOf(STILL_WAITING);
            String preemption = cut < 0 ? current : current.substring(0, cut);
            return why == null || why.isBlank() || preemption.equals(why)
                    ? preemption
                    : preemption + STILL_WAITING + why;
        }
        return why;
    }
}
