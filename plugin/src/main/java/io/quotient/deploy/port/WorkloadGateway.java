package io.quotient.deploy.port;

import io.quotient.core.scheduling.JobId;
import io.quotient.core.scheduling.PlacedJob;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Applies decisions to the cluster (Kubernetes: renders the template into a Job and creates it, deletes pods,
 * manages reservation pods, records Events; embedded: changes the in-memory cluster). Every method is
 * idempotent, because after a crash the service re-applies what its records say.
 */
public interface WorkloadGateway {

    /** Template names that {@link #deploy} can render; an unknown name is refused before anything is recorded. */
    Set<String> templateNames();

    /**
     * Whether jobs of this template are preemptible when the request does not say: a template may declare it
     * (annotation {@code quotient.io/preemptible}); interactive notebooks are not, batch jobs are.
     */
    default Optional<Boolean> preemptibleByDefault(String template) {
        return Optional.empty();
    }

    /**
     * Creates the job's workload on the placement: pinned to {@code placement.node()}, with whole GPUs as
     * {@code nvidia.com/gpu} and fractions bound to the GPU UUIDs in {@code gpus} (all known). Does nothing
     * when an identical workload exists already; replaces a different one (an older placement).
     */
    void deploy(JobRecord record, PlacedJob placement, List<GpuBinding> gpus);

    /** Stops the job's workload gracefully (pods get {@code grace} to exit); nothing when there is none. */
    void stop(JobId job, Duration grace);

    /**
     * Makes sure a reservation holds this whole GPU for fractional jobs; returns the GPU's UUID, or an empty
     * string while it is not known yet (the node enforcer reports it a moment after the reservation starts).
     */
    String ensureReservation(GpuSlot gpu);

    /** Releases the reservation of this GPU (the last fraction on it left); nothing when there is none. */
    void releaseReservation(GpuSlot gpu);

    /** Records an event on the job (Kubernetes Event on its record) with a reason of CONVENTIONS.md. */
    void recordEvent(JobId job, String reason, String message);
}
