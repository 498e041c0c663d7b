package io.quotient.deploy.port;

import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Applies decisions to the cluster (Kubernetes: renders the template into a Job and creates it, deletes pods,
 * manages reservation pods, records Events; embedded: changes the in-memory cluster). Every method is
 * idempotent, because after a crash the service re-applies what its records say.
 */
public interface WorkloadGateway {

    /**
     * The templates {@link #deploy} can render, by name, with what a request must fit (an unknown name, replicas on
     * a one-pod template, a runtime on a template without one are refused before anything is recorded) and whether
     * their jobs are preemptible when a request does not say (annotation {@code quotient.io/preemptible}:
     * interactive notebooks are not, batch jobs are).
     */
    Map<String, TemplateTraits> templates();

    /**
     * Creates the job's workload on the placement: pinned to {@code placement.node()}, with whole GPUs as
     * {@code nvidia.com/gpu} and fractions bound to the GPU UUIDs in {@code gpus} (all known). Does nothing
     * when an identical workload exists already; replaces a different one (an older placement).
     */
    void deploy(JobRecord record, PlacedJob placement, List<GpuBinding> gpus);

    /** Stops the job's workload gracefully (pods get {@code grace} to exit); nothing when there is none. */
    void stop(JobId job, Duration grace);

    /**
     * Removes the pods the job's workload runs beyond what it should ({@link ClusterObserver#surplusPods}), strays of
     * an earlier object first, then the newest; they get {@code grace} to exit. Nothing when there are none.
     */
    void removeSurplusPods(JobId job, Duration grace);

    /**
     * Makes sure a reservation holds this whole GPU for fractional jobs; returns the GPU's UUID, or an empty
     * string while it is not known yet (the node enforcer reports it a moment after the reservation starts).
     */
    String ensureReservation(GpuSlot gpu);

    /** Releases the reservation of this GPU (the last fraction on it left); nothing when there is none. */
    void releaseReservation(GpuSlot gpu);

    /** Records an event on the job (Kubernetes Event on its record) with a reason of docs/design.md, "Conventions". */
    void recordEvent(JobId job, String reason, String message);
}
