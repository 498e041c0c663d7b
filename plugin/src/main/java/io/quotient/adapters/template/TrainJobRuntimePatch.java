package io.quotient.adapters.template;

import io.quotient.core.model.PlacedJob;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A placement told to Kubeflow Trainer the way Kueue tells it: one {@code spec.runtimePatches} entry of a TrainJob
 * ({@code trainer.kubeflow.org/v1alpha1}) under Quotient's own {@link #MANAGER}, aimed at the runtime's {@code node}
 * replicated job's pod template. Trainer applies the runtime and then every patch, so the pods it makes carry
 * Quotient's labels, a required node affinity to the chosen nodes, for a gang a required one-per-node pod
 * anti-affinity (so the real kube-scheduler binds one replica per chosen node), and the tolerations asked for; no
 * copy of the runtime is made.
 *
 * <p>The GPU env of a fraction is not part of the entry: Trainer refuses container env in runtime patches for the
 * {@code node} container and takes the trainer's env in {@code spec.trainer.env}. {@link #applyTo} writes both;
 * {@link #trainerEnv} gives the env alone for a caller that builds {@code spec.trainer} itself. {@code spec.trainer}
 * is immutable once created (a CEL rule, enforced from Kubernetes 1.25), so that env must be known at creation.
 *
 * <p>Built as maps and lists (the JSON tree the API server gets), never as YAML text. Immutable: every
 * {@code with...} returns a new builder.
 */
public final class TrainJobRuntimePatch {

    /** Quotient's manager name in {@code runtimePatches}; other managers' entries are never touched. */
    public static final String MANAGER = "quotient.io/scheduler";
    /** The replicated job and container of a Trainer runtime that run the training (one pod per node). */
    public static final String NODE_JOB = "node";

    public static final String TRAINER_CONTAINER = "node";

    private final List<String> nodes;
    private final Map<String, String> podLabels;
    private final boolean onePerNode;
    private final Map<String, String> env;
    private final List<Map<String, Object>> tolerations;
    private final Map<String, Object> basePod;

    private TrainJobRuntimePatch(
            List<String> nodes,
            Map<String, String> podLabels,
            boolean onePerNode,
            Map<String, String> env,
            List<Map<String, Object>> tolerations,
            Map<String, Object> basePod) {
        this.nodes = List.copyOf(nodes);
        this.podLabels = new TreeMap<>(podLabels);
        this.onePerNode = onePerNode;
        this.env = new TreeMap<>(env);
        this.tolerations =
                tolerations.stream().map(t -> Map.copyOf(Trees.deepCopy(t))).toList();
        this.basePod = Trees.deepCopy(basePod);
    }

    /**
     * A placement on these nodes (one for a single-node job; a gang's nodes, one replica each). Fails when there is
     * no node or a node repeats: Trainer would get an affinity Quotient did not plan.
     */
    public static TrainJobRuntimePatch onNodes(List<String> nodes) {
        Objects.requireNonNull(nodes, "nodes");
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("a TrainJob placement needs at least one node");
        }
        if (nodes.stream().distinct().count() != nodes.size()) {
            throw new IllegalArgumentException(
                    "a TrainJob placement names a node twice (" + nodes + "); a gang places one replica per node");
        }
        nodes.forEach(n -> Objects.requireNonNull(n, "node"));
        return new TrainJobRuntimePatch(nodes, Map.of(), nodes.size() > 1, Map.of(), List.of(), Map.of());
    }

    /** A placement on the nodes the scheduler chose for every replica of the job, the first replica's first. */
    public static TrainJobRuntimePatch of(PlacedJob placement) {
        return onNodes(
                placement.replicas().stream().map(PlacedJob.Replica::node).toList());
    }

    /**
     * Labels for the {@code node} pods (team, job, quota state): observers find the pods by them, and a gang's
     * one-per-node anti-affinity selects its own pods by them.
     */
    public TrainJobRuntimePatch withPodLabels(Map<String, String> labels) {
        return new TrainJobRuntimePatch(nodes, labels, onePerNode, env, tolerations, basePod);
    }

    /** Env for the trainer container (a fraction's {@code NVIDIA_VISIBLE_DEVICES} and memory limits). */
    public TrainJobRuntimePatch withEnv(Map<String, String> values) {
        return new TrainJobRuntimePatch(nodes, podLabels, onePerNode, values, tolerations, basePod);
    }

    /** Tolerations for the {@code node} pods (e.g. of tainted GPU pools), as Kubernetes toleration objects. */
    public TrainJobRuntimePatch withTolerations(List<Map<String, Object>> values) {
        return new TrainJobRuntimePatch(nodes, podLabels, onePerNode, env, values, basePod);
    }

    /**
     * What else Quotient's patch carries for the {@code node} pods (a pod template: {@code metadata} and the pod
     * fields a runtime patch may set, such as the service account, volumes and volume mounts of a job's request).
     * The placement is added to it: labels merged, the node affinity added to its required terms, tolerations
     * appended.
     */
    public TrainJobRuntimePatch withPodTemplate(Map<String, Object> pod) {
        return new TrainJobRuntimePatch(nodes, podLabels, onePerNode, env, tolerations, pod);
    }

    /** The {@code runtimePatches} entry: {@code manager} plus the {@code node} pod template's patch. */
    public Map<String, Object> entry() {
        Map<String, Object> podTemplate = Trees.deepCopy(basePod);
        if (!podLabels.isEmpty()) {
            ContainerEdits.putAll(Trees.childMap(podTemplate, "metadata"), "labels", podLabels);
        }
        Map<String, Object> podSpec = Trees.childMap(podTemplate, "spec");
        NodePinning.pin(podSpec, nodes);
        if (onePerNode) {
            if (podLabels.isEmpty()) {
                throw new IllegalStateException(
                        "a gang's one-per-node anti-affinity needs the pods' labels; " + "call withPodLabels first");
            }
            NodePinning.onePerNode(podSpec, podLabels);
        }
        if (!tolerations.isEmpty()) {
            Trees.childList(podSpec, "tolerations").addAll(Trees.deepCopy(tolerations));
        }

        Map<String, Object> nodeJob = new LinkedHashMap<>();
        nodeJob.put("name", NODE_JOB);
        nodeJob.put("template", Map.of("spec", Map.of("template", podTemplate)));
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("manager", MANAGER);
        entry.put(
                "trainingRuntimeSpec", Map.of("template", Map.of("spec", Map.of("replicatedJobs", List.of(nodeJob)))));
        return Trees.deepCopy(entry);
    }

    /** The env as {@code spec.trainer.env} items ({@code name}, {@code value}), sorted by name. */
    public List<Map<String, Object>> trainerEnv() {
        List<Map<String, Object>> items = new ArrayList<>();
        env.forEach((name, value) -> {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("name", name);
            item.put("value", value);
            items.add(item);
        });
        return items;
    }

    /**
     * Writes the placement into a TrainJob document: Quotient's {@code runtimePatches} entry replaced (or added at
     * the end), every other manager's entry left as it was and where it was; the env set on {@code spec.trainer.env}
     * (replacing a variable of the same name, keeping the others).
     */
    public void applyTo(Map<String, Object> trainJob) {
        Map<String, Object> spec = Trees.childMap(trainJob, "spec");
        replaceOwnEntry(Trees.childList(spec, "runtimePatches"), entry());
        if (!env.isEmpty()) {
            ContainerEdits.setEnv(Trees.childMap(spec, "trainer"), env);
        }
    }

    /** Removes Quotient's entry (a preempted, re-queued TrainJob holds no placement); others stay. */
    public static void removeFrom(Map<String, Object> trainJob) {
        if (trainJob.get("spec") instanceof Map<?, ?> spec && spec.get("runtimePatches") instanceof List<?> patches) {
            patches.removeIf(TrainJobRuntimePatch::isOwn);
        }
    }

    private static void replaceOwnEntry(List<Object> patches, Map<String, Object> own) {
        for (int i = 0; i < patches.size(); i++) {
            if (isOwn(patches.get(i))) {
                patches.set(i, own);
                // a list that somehow holds two of Quotient's entries keeps only the new one
                for (int j = patches.size() - 1; j > i; j--) {
                    if (isOwn(patches.get(j))) {
                        patches.remove(j);
                    }
                }
                return;
            }
        }
        patches.add(own);
    }

    private static boolean isOwn(Object patch) {
        return patch instanceof Map<?, ?> map && MANAGER.equals(map.get("manager"));
    }
}
