package io.quotient.adapters.template;

import io.quotient.core.model.JobSpec;
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
 * <p>A gang (a job of several replicas, placed one per node) renders as one Master and {@code replicas - 1}
 * Workers, each pod with the whole per-replica request; a TrainJob's one trainer pod template gets the whole
 * per-replica request too (Trainer runs it on {@code numNodes} nodes).
 *
 * @param wholeGpus    {@code nvidia.com/gpu} for each pod of this template
 * @param getsFraction whether this pod gets the fractional GPU env
 */
record ReplicaShare(PodTemplate pod, int wholeGpus, boolean getsFraction, long cpuMilli, long memoryMib) {

    /** @param placedReplicas how many replicas of a gang were placed (1 for a single-node job) */
    static List<ReplicaShare> plan(
            WorkloadKind kind, Map<String, Object> document, JobSpec spec, int wholeGpus, int placedReplicas) {
        boolean fraction = TemplateRenderer.fractional(spec.gpu());
        boolean gang = spec.gang().spansNodes();
        if (gang && !kind.spansNodes()) {
            throw new IllegalArgumentException("a " + kind.kind() + " runs one pod; a job of "
                    + spec.gang().replicas() + " replicas needs a template of kind PyTorchJob or TrainJob (e.g."
                    + " pytorchjob, trainjob)");
        }
        if (kind != WorkloadKind.PYTORCH_JOB) {
            // one pod template: a Job's or Pod's only pod, or a TrainJob's node pod (one per placed replica)
            PodTemplate pod = kind.podTemplates(document).get(0);
            return List.of(new ReplicaShare(pod, wholeGpus, fraction, spec.cpuMilli(), spec.memoryMib()));
        }
        Map<String, Object> replicas = WorkloadKind.pytorchReplicaSpecs(document);
        Map<String, Object> master = Trees.requiredMap(replicas, WorkloadKind.MASTER, "spec.pytorchReplicaSpecs");
        master.put("replicas", 1);
        int workers = gang ? placedReplicas - 1 : Math.max(0, wholeGpus - 1);
        if (workers == 0) {
            replicas.remove(WorkloadKind.WORKER);
        } else {
            if (!(replicas.get(WorkloadKind.WORKER) instanceof Map<?, ?>)) {
                replicas.put(WorkloadKind.WORKER, Trees.deepCopy(master));
            }
            Trees.requiredMap(replicas, WorkloadKind.WORKER, "spec.pytorchReplicaSpecs")
                    .put("replicas", workers);
        }
        int pods = gang ? 1 : 1 + workers; // a gang's request is per replica
        int gpusPerPod = gang ? wholeGpus : wholeGpus > 0 ? 1 : 0;
        List<ReplicaShare> shares = new ArrayList<>();
        for (PodTemplate pod : kind.podTemplates(document)) {
            boolean isMaster = pod.path().contains("." + WorkloadKind.MASTER + ".");
            shares.add(new ReplicaShare(
                    pod, gpusPerPod, fraction && isMaster, spec.cpuMilli() / pods, spec.memoryMib() / pods));
        }
        return shares;
    }
}
