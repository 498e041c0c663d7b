package io.quotient.core.placement;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Small hand-built clusters and demands for placement tests. */
final class Clusters {

    private Clusters() {}

    static NodeSpec node(String name, int gpus, String model) {
        return new NodeSpec(name, 64_000, 256_000, gpus, model, 16_384);
    }

    static NodeSpec node(String name, int gpus, String model, long gpuMemoryMib) {
        return new NodeSpec(name, 64_000, 256_000, gpus, model, gpuMemoryMib);
    }

    static ClusterState cluster(NodeSpec... nodes) {
        return new ClusterState(List.of(nodes));
    }

    /** A cluster of {@code n} identical 8-GPU nodes. */
    static ClusterState uniform(int n, int gpus) {
        List<NodeSpec> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            nodes.add(node("n" + i, gpus, "A100"));
        }
        return new ClusterState(nodes);
    }

    static ResourceDemand whole(int gpus) {
        return ResourceDemand.gpus(4_000, 8_000, gpus, ResourceDemand.WHOLE, Set.of());
    }

    static ResourceDemand fraction(int milli) {
        return ResourceDemand.gpus(2_000, 4_000, 1, milli, Set.of());
    }

    /** Takes {@code milli} of GPU {@code gpu} of node {@code node}. */
    static void use(ClusterState state, int node, int gpu, int milli) {
        state.allocate(new Allocation(node, new int[] {gpu}, milli, 0, 0));
    }
}
