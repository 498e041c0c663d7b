package io.quotient.sim;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.placement.ClusterFittedWorkload;
import io.quotient.core.placement.PlacementPolicies;
import io.quotient.core.placement.PlacementPolicy;
import io.quotient.core.placement.QuotientSettings;
import io.quotient.core.placement.SharedGpuFirstPolicy;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.placement.TieBreak;

import java.util.List;

/**
 * What places the pods of one simulated run: a label for reports and how to make the policy from the run's
 * seed, the trace's target workload and the cluster's nodes.
 */
public record Placement(String label, Factory factory) {

    /** Makes the policy of one run. */
    @FunctionalInterface
    public interface Factory {
        PlacementPolicy create(long seed, TargetWorkload workload, List<NodeSpec> nodes);
    }

    /** A policy by name, as the FGD simulator runs it: the trace's own workload, ties as given. */
    public static Placement policy(String name, TieBreak ties) {
        PlacementPolicies.create(name, 0, TargetWorkload.typical()); // an unknown name fails here, before any run
        return new Placement(name, (seed, workload, nodes) -> PlacementPolicies.create(name, seed, workload, ties));
    }

    /** Quotient's policy with other constants, labelled with them (the sensitivity table). */
    public static Placement quotient(QuotientSettings settings, TieBreak ties) {
        return new Placement(String.format(java.util.Locale.ROOT, "quotient(reserve %.2f, rare %.3f)",
                settings.reserveWeight(), settings.rareSizeShare()),
                (seed, workload, nodes) -> PlacementPolicies.quotient(seed, workload, settings, ties));
    }

    /**
     * The policy as the service runs it ({@code QuotaScheduler}): fractions first to GPUs that already host
     * fractions ({@link SharedGpuFirstPolicy}), the workload's CPU per GPU capped at the median GPU node's
     * ({@link ClusterFittedWorkload}). With {@code typicalWorkload} the service's built-in expectation of job
     * shapes is used instead of the trace's, as a service does that has been told nothing about its jobs.
     */
    public static Placement service(String name, boolean typicalWorkload, TieBreak ties) {
        PlacementPolicies.create(name, 0, TargetWorkload.typical());
        String label = name + (typicalWorkload ? "-service-typical" : "-service");
        return new Placement(label, (seed, workload, nodes) -> new SharedGpuFirstPolicy(PlacementPolicies.create(name,
                seed, new ClusterFittedWorkload(typicalWorkload ? TargetWorkload.typical() : workload).forNodes(nodes),
                ties)));
    }
}
