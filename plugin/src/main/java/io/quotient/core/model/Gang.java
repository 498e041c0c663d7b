package io.quotient.core.model;

/**
 * How many replicas of a job run together, one per node, all or nothing (distributed training). A single-node
 * job is a gang of one. An elastic gang may start with {@code minReplicas} when no more fit.
 */
public record Gang(int replicas, int minReplicas) {

    public static final Gang SINGLE = new Gang(1, 1);

    public Gang {
        if (replicas < 1) {
            throw new IllegalArgumentException("replicas must be at least 1, was " + replicas);
        }
        if (minReplicas < 1 || minReplicas > replicas) {
            throw new IllegalArgumentException("minReplicas must be in 1.." + replicas + ", was " + minReplicas);
        }
    }

    public static Gang of(int replicas) {
        // the one instance for single jobs: most jobs are, and comparing them then ends at the reference
        return replicas == 1 ? SINGLE : new Gang(replicas, replicas);
    }

    /** More than one replica: placed across nodes, never moved, evicted only whole. */
    public boolean spansNodes() {
        return replicas > 1;
    }
}
