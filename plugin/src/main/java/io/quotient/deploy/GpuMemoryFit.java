package io.quotient.deploy;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.Demands;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobSpec;
import io.quotient.core.request.RequestException;
import java.util.Collection;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * A MiB request held to the memory of the GPUs it may run on (the cluster's GPUs of the models its {@code gpuModels}
 * allow, all when it names none), on the nodes DeploymentService reads for {@link TeamLimits}:
 *
 * <ul>
 *   <li>a {@code gpu.memoryLimitMib} above the largest of them, where {@code gpu.memoryMib} fits: the job was placed
 *       with a limit no GPU it runs on can reach, in silence;
 *   <li>a {@code gpu.memoryMib} above the largest of them when the job names its models and the cluster has GPUs of
 *       each: a model's GPUs have the memory they have, so no node the cluster gains can hold it, and it waited for
 *       ever. Without {@code gpuModels} (or with a model no node has yet) a node with larger GPUs may come, so such a
 *       job is left to wait as {@code Unschedulable} (docs/api-errors.md, "A job the cluster can never hold").
 * </ul>
 *
 * A cluster with no GPU of the allowed models (or of unknown memory) tells nothing of their memory: nothing is refused.
 */
final class GpuMemoryFit {

    private GpuMemoryFit() {}

    /** @throws RequestException naming the field and the largest GPU memory it may use */
    static void check(JobSpec spec, Collection<NodeSpec> nodes) {
        if (!(spec.gpu() instanceof GpuRequest.Memory m)) {
            return;
        }
        ResourceDemand demand = Demands.of(spec);
        OptionalLong largest = nodes.stream()
                .filter(n -> n.gpuCount() > 0 && n.gpuMemoryMib() > 0 && demand.allowsModel(n.gpuModel()))
                .mapToLong(NodeSpec::gpuMemoryMib)
                .max();
        if (largest.isEmpty()) {
            return;
        }
        long most = largest.getAsLong();
        Set<String> models = new TreeSet<>(demand.allowedModels());
        String which = models.isEmpty()
                ? "the largest GPU of the cluster has " + most + " MiB"
                : "the largest GPU of the models it may run on (" + String.join(", ", models) + ") has " + most
                        + " MiB";
        if (m.mib() > most && !models.isEmpty() && everyModelPresent(models, nodes)) {
            throw new RequestException(
                    "gpu.memoryMib",
                    "(" + m.mib() + ") is more than any GPU it may run on has: " + which
                            + ", and no GPU of these models has more, so it could never run; ask for at most " + most
                            + " MiB, or allow a model with larger GPUs in gpuModels");
        }
        if (m.mib() <= most && m.limitMib() > most) {
            throw new RequestException(
                    "gpu.memoryLimitMib",
                    "(" + m.limitMib() + ") is more than any GPU it may run on has: " + which
                            + ", so the limit could never be reached; ask for at most " + most
                            + " MiB, or leave gpu.memoryLimitMib out to use gpu.memoryMib alone");
        }
    }

    private static boolean everyModelPresent(Set<String> models, Collection<NodeSpec> nodes) {
        return models.stream()
                .allMatch(model -> nodes.stream()
                        .anyMatch(n -> n.gpuCount() > 0 && n.gpuMemoryMib() > 0 && model.equals(n.gpuModel())));
    }
}
