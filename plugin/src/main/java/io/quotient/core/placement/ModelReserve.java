package io.quotient.core.placement;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.NodeSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * How much of each GPU model's free capacity the jobs that can only run on some models will need beyond their
 * fair part. A job that may run anywhere and lands on a model that constrained jobs need takes capacity they
 * cannot replace, so a later constrained job fails while GPUs of other models stay idle; a job that can only run
 * there has no such choice. A job is constrained by its {@code gpu_spec} and by node shapes: an 8-GPU job fits
 * only the models with 8-GPU nodes that have its CPU. For the cluster as it is now, with F_X free GPU milli of
 * model X and F in all:
 * <ul>
 *   <li>constrained need N_X: each constrained GPU shape's demand (probability × GPUs × share), split over the
 *   models that can host it in proportion to their free capacity;</li>
 *   <li>reserve r_X = min(1, max(0, (N_X · F / F_X − N) / φ)), with N the constrained demand and φ the demand
 *   that can run on every model: the share of X's free capacity that jobs free to go elsewhere should leave
 *   alone. It is 0 where constrained jobs press on X no harder than on the cluster as a whole, so a workload
 *   constrained in the cluster's own mix, or not at all, gets none; and it follows the cluster as it fills, so
 *   models left alone for a while stop being spared once others fill up.</li>
 * </ul>
 * Only the workload and the node list go in: no figure is fitted to a trace.
 */
final class ModelReserve {

    private final Map<String, Integer> modelIndex = new HashMap<>();
    private final int[] nodeModel;
    private final double[] shapeDemand;
    private final int[][] shapeHosts;
    private final double flexible;

    ModelReserve(TargetWorkload workload, List<NodeSpec> nodes) {
        new TreeSet<>(nodes.stream()
                        .filter(n -> n.gpuCount() > 0)
                        .map(NodeSpec::gpuModel)
                        .toList())
                .forEach(m -> modelIndex.put(m, modelIndex.size()));
        nodeModel = nodes.stream()
                .mapToInt(n -> n.gpuCount() > 0 ? modelIndex.get(n.gpuModel()) : -1)
                .toArray();
        List<Double> demands = new ArrayList<>();
        List<int[]> hosts = new ArrayList<>();
        double free = 0;
        for (TargetWorkload.Shape s : workload.shapes()) {
            if (s.cpuOnly()) {
                continue;
            }
            int[] models = hostingModels(s, nodes);
            double demand = s.probability() * s.gpuCount() * s.gpuMilli();
            if (models.length == modelIndex.size()) {
                free += demand;
            } else if (models.length > 0 && demand > 0) {
                demands.add(demand);
                hosts.add(models);
            }
        }
        flexible = free;
        shapeDemand = demands.stream().mapToDouble(Double::doubleValue).toArray();
        shapeHosts = hosts.toArray(new int[0][]);
    }

    /** Whether any job can be steered: some shapes are constrained and some are not. */
    boolean steers() {
        return flexible > 0 && shapeDemand.length > 0;
    }

    /** The reserve of every node's model for the cluster as it is now (0 for nodes without GPUs). */
    void reserveByNode(ClusterState state, double[] byNode) {
        double[] free = new double[modelIndex.size()];
        for (int n = 0; n < state.nodeCount(); n++) {
            if (nodeModel[n] >= 0) {
                free[nodeModel[n]] += state.gpuFreeOnNode(n);
            }
        }
        double[] reserve = reserve(free);
        for (int n = 0; n < state.nodeCount(); n++) {
            byNode[n] = nodeModel[n] >= 0 ? reserve[nodeModel[n]] : 0;
        }
    }

    /** r_X per model index from the free GPU milli per model (see the class comment). */
    double[] reserve(double[] free) {
        double[] need = new double[free.length];
        double total = 0;
        double needed = 0;
        for (double f : free) {
            total += f;
        }
        for (int s = 0; s < shapeDemand.length; s++) {
            double hostFree = 0;
            for (int m : shapeHosts[s]) {
                hostFree += free[m];
            }
            if (hostFree > 0) {
                needed += shapeDemand[s];
                for (int m : shapeHosts[s]) {
                    need[m] += shapeDemand[s] * free[m] / hostFree;
                }
            }
        }
        double[] reserve = new double[free.length];
        if (flexible == 0) {
            return reserve;
        }
        for (int m = 0; m < free.length; m++) {
            if (free[m] > 0) {
                reserve[m] = Math.max(0, Math.min(1, (need[m] * total / free[m] - needed) / flexible));
            }
        }
        return reserve;
    }

    /** Indices of the models with a node that has the shape's GPU count and CPU, among those the shape allows. */
    private int[] hostingModels(TargetWorkload.Shape s, List<NodeSpec> nodes) {
        TreeSet<Integer> models = new TreeSet<>();
        for (NodeSpec n : nodes) {
            if (n.gpuCount() > 0
                    && n.gpuCount() >= s.gpuCount()
                    && n.cpuMilli() >= s.cpuMilli()
                    && s.allowsModel(n.gpuModel())) {
                models.add(modelIndex.get(n.gpuModel()));
            }
        }
        return models.stream().mapToInt(Integer::intValue).toArray();
    }
}
