package io.quotient.sim;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.placement.ClusterFittedWorkload;
import io.quotient.core.placement.PlacementPolicy;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.placement.WorkloadLearner;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A placement that, as the service does, has been told nothing about its jobs: every arriving pod is counted by a
 * {@link WorkloadLearner} (typical workload until enough were seen) before it is placed, and the policy scores
 * against the workload learned from the arrivals so far, fitted to the nodes. The policy is made again only when
 * the learner refits, which keeps a run's speed close to a fixed workload's.
 */
final class LearningPlacement implements PlacementPolicy {

    private final WorkloadLearner learner = new WorkloadLearner(TargetWorkload.typical());
    private final ClusterFittedWorkload fitted = ClusterFittedWorkload.following(learner::current);
    private final List<NodeSpec> nodes;
    private final Function<TargetWorkload, PlacementPolicy> policyFor;
    private TargetWorkload learned;
    private PlacementPolicy policy;

    /** @param policyFor the policy for a (fitted) workload: the service's wrappers around the named policy */
    LearningPlacement(List<NodeSpec> nodes, Function<TargetWorkload, PlacementPolicy> policyFor) {
        this.nodes = List.copyOf(nodes);
        this.policyFor = policyFor;
    }

    @Override
    public Optional<Allocation> place(ClusterState state, ResourceDemand demand, NodeFilter filter) {
        learner.observe(demand);
        TargetWorkload nowLearned = learner.current();
        if (nowLearned != learned) {
            // the nodes never change here, so the fitted workload changes exactly when the learner refits; asking
            // for it on every pod cost a pass over the nodes per placement
            learned = nowLearned;
            policy = policyFor.apply(fitted.forNodes(nodes));
        }
        return policy.place(state, demand, filter);
    }

    @Override
    public String name() {
        return policy == null ? "learning" : policy.name();
    }
}
