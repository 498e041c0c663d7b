package io.quotient.deploy.port;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.JobId;
import io.quotient.core.usage.PodCounterReading;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The live view of the cluster the scheduling snapshot is built from (Kubernetes: informer caches on nodes,
 * pods, Jobs; embedded: the in-memory cluster). Reads are cheap and never block on the network; they may lag
 * the cluster slightly, which the idempotent gateway and the periodic reconciliation absorb.
 */
public interface ClusterObserver {

    /** The schedulable GPU nodes with their capacities (GPU-feature-discovery labels, allocatable). */
    List<NodeSpec> nodes();

    /**
     * The names of every node that exists, cordoned, not ready and GPU-less ones included: a job placed on a node
     * missing here has lost its node (it was removed from the cluster). Empty while the view cannot be trusted to
     * be complete: before the node cache has synced, and while it holds no node at all (more likely a view not
     * yet filled than a cluster without nodes), so that no job is ever re-queued because of an empty view.
     */
    Optional<Set<String>> existingNodes();

    /** Nodes whose node enforcer reports ready recently; only these receive new fractional jobs. */
    Set<String> fractionReadyNodes();

    /**
     * Every reservation that exists (Kubernetes: reservation pods), with the GPU UUID reported for it, or
     * an empty string while the node enforcer has not reported it yet.
     */
    Map<GpuSlot, String> reservations();

    /**
     * The workloads Quotient created, by job (Kubernetes: Jobs/pods labelled {@code quotient.io/team} and
     * {@code quotient.io/job}). Jobs without a workload are absent from the map.
     */
    Map<JobId, WorkloadPhase> workloads();

    /**
     * Per job, how many pods its workload runs beyond what its controlling object runs at once, for longer than that
     * object's controller takes to remove them (Kubernetes: a batch Job's live pods beyond its parallelism). Empty
     * where no such pods exist, which is always so for a cluster whose workloads cannot run twice.
     */
    default Map<JobId, Integer> surplusPods() {
        return Map.of();
    }

    /**
     * The latest usage counters of every pod of a Quotient job on a GPU, from the node enforcers' reports (see
     * docs/usage.md). Empty where no enforcer reports usage, which is always so for a cluster without one.
     */
    default List<PodCounterReading> podUsage() {
        return List.of();
    }

    /** The phase of one job's workload; {@link WorkloadPhase#ABSENT} when none exists. */
    default WorkloadPhase workload(JobId job) {
        return workloads().getOrDefault(job, WorkloadPhase.ABSENT);
    }
}
