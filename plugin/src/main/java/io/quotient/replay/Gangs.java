package io.quotient.replay;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.GpuRequest;
import java.util.List;

/**
 * Turns a single-node job asking more whole GPUs than the largest node holds into a gang of whole-node replicas, as
 * a distributed training job runs on the cluster: {@code ceil(gpus / perNode)} replicas of {@code ceil(gpus / replicas)}
 * GPUs each (a 16-GPU job on 8-GPU nodes is 2 × 8; a 12-GPU job 2 × 6). Other jobs are left as they are.
 */
public final class Gangs {

    private Gangs() {}

    public static List<ReplayJob> formed(List<ReplayJob> jobs, List<NodeSpec> nodes) {
        int perNode = nodes.stream().mapToInt(NodeSpec::gpuCount).max().orElse(0);
        return jobs.stream().map(j -> formed(j, perNode)).toList();
    }

    static ReplayJob formed(ReplayJob job, int perNode) {
        if (!(job.gpu() instanceof GpuRequest.WholeGpus w)
                || job.replicas() > 1
                || perNode <= 0
                || w.count() <= perNode) {
            return job;
        }
        int replicas = (w.count() + perNode - 1) / perNode;
        int each = (w.count() + replicas - 1) / replicas;
        return job.withShape(GpuRequest.WholeGpus.of(each), replicas);
    }
}
