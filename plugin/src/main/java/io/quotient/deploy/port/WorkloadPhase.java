package io.quotient.deploy.port;

/** What the cluster shows of a job's workload (its Job/pods), independent of what the record says. */
public enum WorkloadPhase {
    /** No workload object exists for the job. */
    ABSENT,
    /** The workload exists but its pods do not run yet (pending binding, pulling images, terminating). */
    STARTING,
    RUNNING,
    SUCCEEDED,
    FAILED;

    /** Whether the workload object exists in the cluster (finished ones included). */
    public boolean exists() {
        return this != ABSENT;
    }

    /** Whether the workload still takes (or is about to take) capacity. */
    public boolean active() {
        return this == STARTING || this == RUNNING;
    }
}
