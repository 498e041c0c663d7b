package io.quotient.core.scheduling;

import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;

/** One step of a plan, applied by the adapters in the order given (evictions before the placements they make room for). */
public sealed interface PlanAction {

    JobId job();

    /** Run the job on this node and these GPUs. */
    record Place(PlacedJob placement) implements PlanAction {
        public JobId job() {
            return placement.id();
        }
    }

    /** Stop the job (gracefully) and put it back in the queue; it is re-deployed when capacity frees. */
    record Evict(JobId job, String reason) implements PlanAction {}

    /** The job cannot run now; {@code reason} tells a human why (quota, max reached, no node with ...). */
    record KeepPending(JobId job, String reason) implements PlanAction {}

    /** Move a running job elsewhere (rebalancing): evict it, then place it as given. */
    record Move(PlacedJob from, PlacedJob to) implements PlanAction {
        public JobId job() {
            return from.id();
        }
    }

    /**
     * Grow an elastic gang that runs with fewer replicas than it asked for: its workload is restarted with more
     * replicas (the placement {@code to} includes them); elastic training re-forms its group on restart.
     */
    record Grow(PlacedJob from, PlacedJob to) implements PlanAction {
        public JobId job() {
            return from.id();
        }
    }
}
