package io.quotient.deploy.port;

/**
 * Whether this replica may decide now (Kubernetes: holds the Lease; embedded: always). Periodic jobs
 * (re-queue, reclaim, defragment) and deploy decisions run only on the leader.
 */
public interface LeadershipGate {

    boolean isLeader();

    LeadershipGate ALWAYS = () -> true;
}
