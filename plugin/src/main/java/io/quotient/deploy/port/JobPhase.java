package io.quotient.deploy.port;

/**
 * Where a job stands in its life. Only {@link #PLACED} and {@link #RUNNING} hold capacity.
 *
 * <ul>
 *   <li>{@code Pending}: waiting for capacity; the status reason says why.</li>
 *   <li>{@code Placed}: a node and GPUs are decided and recorded; the workload is (being) created there.</li>
 *   <li>{@code Running}: its pods run.</li>
 *   <li>{@code Preempted}: decided to be evicted; its workload is being stopped, then it returns to Pending.</li>
 *   <li>{@code Succeeded}, {@code Failed}: finished; the record stays until deleted, holding no capacity.</li>
 * </ul>
 */
public enum JobPhase {
    PENDING("Pending"),
    PLACED("Placed"),
    RUNNING("Running"),
    PREEMPTED("Preempted"),
    SUCCEEDED("Succeeded"),
    FAILED("Failed");

    private final String wireName;

    JobPhase(String wireName) {
        this.wireName = wireName;
    }

    /** The name used in the REST API and the custom resource's status. */
    public String wireName() {
        return wireName;
    }

    /** Whether a job in this phase occupies its node and GPUs. */
    public boolean holdsCapacity() {
        return this == PLACED || this == RUNNING;
    }

    /** Whether a job in this phase waits in the queue (a preempted job is re-queued). */
    public boolean waiting() {
        return this == PENDING || this == PREEMPTED;
    }

    public boolean finished() {
        return this == SUCCEEDED || this == FAILED;
    }

    public static JobPhase fromWireName(String name) {
        for (JobPhase p : values()) {
            if (p.wireName.equals(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown job phase '" + name
                + "', expected one of Pending, Placed, Running, Preempted, Succeeded, Failed");
    }
}
