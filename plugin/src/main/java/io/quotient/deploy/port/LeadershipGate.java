package io.quotient.deploy.port;

/**
 * Whether this replica may decide now (Kubernetes: holds the Lease; embedded: always). Periodic jobs
 * (re-queue, reclaim, defragment) and deploy decisions run only on the leader.
 */
public interface LeadershipGate {

    boolean isLeader();

    /**
     * Runs {@code action} (in the background) each time this replica becomes the leader, so that a new leader
     * rebuilds from the API server at once instead of on its next periodic re-queue. A gate that always leads
     * never changes, and ignores it.
     */
    default void whenElected(Runnable action) {
    }

    LeadershipGate ALWAYS = () -> true;
}
