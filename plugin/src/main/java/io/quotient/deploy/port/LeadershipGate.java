package io.quotient.deploy.port;

import java.util.Optional;

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
    default void whenElected(Runnable action) {}

    /**
     * This replica's current term of office: a name new at each election (the same replica elected again gets a new
     * one), empty while it does not lead. A gate that always leads has one term.
     */
    default Optional<String> term() {
        return isLeader() ? Optional.of("sole") : Optional.empty();
    }

    LeadershipGate ALWAYS = () -> true;
}
