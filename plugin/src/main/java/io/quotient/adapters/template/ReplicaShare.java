package io.quotient.adapters.template;

import io.quotient.core.scheduling.JobSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What each pod template of a workload gets of the job's resources.
 *
 * <p>Jobs and pods have one pod template: it gets everything. A PyTorchJob is placed as one unit on one node
 * (the core places a job on a single node): with whole GPUs, each replica gets one GPU — one Master plus
 * {@code count - 1} Workers (a Worker copied from the Master when the template has none) — and CPU and memory
 * are divided evenly among them; with a fraction, MiB or no GPU the Master runs alone with all of it.
 *
 * @param wholeGpus    {@code nvidia.com/gpu} for each pod of this template
 * @param getsFraction whether this pod gets the fractional GPU env
 */
record ReplicaShare(PodTemplate pod, int wholeGpus, boolean getsFraction, long cpuMilli, long memoryMib) {

    static List<ReplicaShare> plan(WorkloadKind kind, Map<String, Object> document, JobSpec spec, int wholeGpus) {
        boolean fraction = TemplateRenderer.fractional(spec.gpu());
        if (kind != WorkloadKind.PYTORCH_JOB) {
            PodTemplate pod = kind.podTemplates(document).get(0);
            return List.of(new ReplicaShare(pod, wholeGpus, fraction, spec.cpuMilli(), spec.memoryMib()));
        }
        Map<String, Object> replicas = WorkloadKind.pytorchReplicaSpecs(document);
        Map<String, Object> master = Trees.requiredMap(replicas, WorkloadKind.MASTER, "spec.pytorchReplicaSpecs");
        master.put("replicas", 1);
        int workers = Math.max(0, wholeGpus - 1);
        if (workers == 0) {
            replicas.remove(WorkloadKind.WORKER);
        } else {
            if (!(replicas.get(WorkloadKind.WORKER) instanceof Map<?, ?>)) {
                replicas.put(WorkloadKind.WORKER, Trees.deepCopy(master));
            }
            Trees.requiredMap(replicas, WorkloadKind.WORKER, "spec.pytorchReplicaSpecs").put("replicas", workers);
        }
        int pods = 1 + workers;
        int gpusPerPod = wholeGpus > 0 ? 1 : 0;
        List<ReplicaShare> shares = new ArrayList<>();
        for (PodTemplate pod : kind.podTemplates(document)) {
            boolean isMaster = pod.path().contains("." + WorkloadKind.MASTER + ".");
            shares.add(new ReplicaShare(pod, gpusPerPod, fraction && isMaster, spec.cpuMilli() / pods,
                    spec.memoryMib() / pods));
        }
        return shares;
    }
}
