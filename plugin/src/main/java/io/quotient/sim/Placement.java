package io.quotient.sim;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.placement.ClusterFittedWorkload;
import io.quotient.core.placement.PlacementPolicies;
import io.quotient.core.placement.PlacementPolicy;
import io.quotient.core.placement.QuotientSettings;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.placement.TieBreak;
import io.quotient.core.placement.WorkloadLearner;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

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
        return new Placement(
                String.format(
                        Locale.ROOT,
                        "quotient(reserve %.2f, rare %.3f, fgd %.3f)",
                        settings.reserveWeight(),
                        settings.rareSizeShare(),
                        settings.fragmentationWeight()),
                (seed, workload, nodes) -> PlacementPolicies.quotient(seed, workload, settings, ties));
    }

    /** Which expected job shapes the service's policy scores against in a simulated run. */
    public enum ServiceWorkload {
        /** The trace's own (as the FGD simulator and {@link #policy} use). */
        TRACE(""),
        /** The service's built-in typical workload, as a service that learns nothing would use. */
        TYPICAL("-typical"),
        /** Learned from the arrivals so far, as the service learns from the jobs it sees ({@link WorkloadLearner}). */
        LEARNED("-learned");

        private final String suffix;

        ServiceWorkload(String suffix) {
            this.suffix = suffix;
        }
    }

    /**
     * The policy as the service runs it ({@code QuotaScheduler}): the same policy, scoring against the expected
     * shapes with their CPU fitted to the nodes ({@link ClusterFittedWorkload}), the workload as given.
     */
    public static Placement service(String name, ServiceWorkload expected, TieBreak ties) {
        PlacementPolicies.create(name, 0, TargetWorkload.typical());
        String label = name + "-service" + expected.suffix;
        return new Placement(label, (seed, workload, nodes) -> {
            Function<TargetWorkload, PlacementPolicy> policyFor = w -> PlacementPolicies.create(name, seed, w, ties);
            return switch (expected) {
                case TRACE -> policyFor.apply(new ClusterFittedWorkload(workload).forNodes(nodes));
                case TYPICAL -> policyFor.apply(new ClusterFittedWorkload(TargetWorkload.typical()).forNodes(nodes));
                case LEARNED -> new LearningPlacement(nodes, policyFor);
            };
        });
    }
}
