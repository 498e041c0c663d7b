package io.quotient.adapters.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The kinds of workload a template may describe, with where their pod templates live. Quotient sets
 * placement, labels and GPU settings on every pod template of the object.
 */
public enum WorkloadKind {
    /** A batch Job: one pod template under {@code spec.template}. */
    JOB("batch/v1", "Job", "batch", "v1", "jobs"),
    /** A bare pod (interactive notebooks): the object is its own pod template. */
    POD("v1", "Pod", "", "v1", "pods"),
    /** A Kubeflow PyTorchJob: one pod template per replica type under {@code spec.pytorchReplicaSpecs}. */
    PYTORCH_JOB("kubeflow.org/v1", "PyTorchJob", "kubeflow.org", "v1", "pytorchjobs"),
    /**
     * A Kubeflow Trainer v2 TrainJob: its pods come from the referenced runtime; the pod template Quotient edits is
     * staged from {@code spec.trainer} and written back by {@link #place} ({@link TrainerPod}).
     */
    TRAIN_JOB("trainer.kubeflow.org/v1alpha1", "TrainJob", "trainer.kubeflow.org", "v1alpha1", "trainjobs");

    /** Replica types of a PyTorchJob, Master first: the Master is the replica that gets a lone GPU. */
    static final String MASTER = "Master";

    static final String WORKER = "Worker";

    private final String apiVersion;
    private final String kind;
    private final String group;
    private final String version;
    private final String plural;

    WorkloadKind(String apiVersion, String kind, String group, String version, String plural) {
        this.apiVersion = apiVersion;
        this.kind = kind;
        this.group = group;
        this.version = version;
        this.plural = plural;
    }

    public String apiVersion() {
        return apiVersion;
    }

    public String kind() {
        return kind;
    }

    /** API group; empty for the core group. */
    public String group() {
        return group;
    }

    public String version() {
        return version;
    }

    /** The resource name in API paths ({@code jobs}, {@code pods}, {@code pytorchjobs}). */
    public String plural() {
        return plural;
    }

    public static Optional<WorkloadKind> of(Object apiVersion, Object kind) {
        for (WorkloadKind k : values()) {
            if (k.apiVersion.equals(apiVersion) && k.kind.equals(kind)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }

    public static String supportedList() {
        List<String> names = new ArrayList<>();
        for (WorkloadKind k : values()) {
            names.add(k.apiVersion + " " + k.kind);
        }
        return String.join(", ", names);
    }

    /**
     * The pod templates (maps holding {@code metadata} and {@code spec}) of a document of this kind, in a
     * stable order. Missing levels are reported with their path, so a malformed template names what is wrong.
     */
    List<PodTemplate> podTemplates(Map<String, Object> document) {
        return switch (this) {
            case POD -> List.of(new PodTemplate("pod", document));
            case JOB ->
                List.of(new PodTemplate(
                        "spec.template",
                        Trees.requiredMap(Trees.requiredMap(document, "spec", ""), "template", "spec")));
            case PYTORCH_JOB -> pytorchPodTemplates(document);
            case TRAIN_JOB -> List.of(TrainerPod.stage(document));
        };
    }

    /**
     * Points the workload at the training runtime the request names instead of the template's (TrainJobs only).
     *
     * @throws IllegalArgumentException for a kind that references no runtime
     */
    void useRuntime(Map<String, Object> document, String runtime) {
        if (!runsOnNamedRuntime()) {
            throw new IllegalArgumentException("the request names the training runtime '" + runtime + "', but a " + kind
                    + " has none; use a template of kind TrainJob (e.g. trainjob) or leave runtime out");
        }
        TrainerPod.useRuntime(document, runtime);
    }

    /** Whether a request may name the training runtime a workload of this kind runs on (a TrainJob's runtimeRef). */
    boolean runsOnNamedRuntime() {
        return this == TRAIN_JOB;
    }

    /** Whether a workload of this kind can run a gang: one pod per replica, on several nodes. */
    boolean spansNodes() {
        return this == PYTORCH_JOB || this == TRAIN_JOB;
    }

    /**
     * Injects the placement where this kind's controller reads it: a required node affinity to the chosen nodes on
     * every pod template (for a gang also one-per-node anti-affinity on the job's labels); a TrainJob gets its
     * edited trainer pod written back and Quotient's runtime patch.
     *
     * @param pods the pod templates rendering edited, from {@link #podTemplates} of this document
     */
    void place(
            Map<String, Object> document,
            List<PodTemplate> pods,
            List<String> nodes,
            boolean gang,
            Map<String, String> labels) {
        if (this == TRAIN_JOB) {
            TrainerPod.fold(document, pods.get(0), nodes, labels);
            return;
        }
        for (PodTemplate pod : pods) {
            NodePinning.pin(pod.spec(), nodes);
            if (gang) {
                NodePinning.onePerNode(pod.spec(), labels);
            }
        }
    }

    private static List<PodTemplate> pytorchPodTemplates(Map<String, Object> document) {
        Map<String, Object> replicas = pytorchReplicaSpecs(document);
        if (!replicas.containsKey(MASTER)) {
            throw new IllegalArgumentException(
                    "spec.pytorchReplicaSpecs has no " + MASTER + " replica; a PyTorchJob needs exactly one Master");
        }
        List<PodTemplate> result = new ArrayList<>();
        for (String type : replicas.keySet()) {
            if (!type.equals(MASTER) && !type.equals(WORKER)) {
                throw new IllegalArgumentException("spec.pytorchReplicaSpecs." + type
                        + " is not a PyTorchJob replica type; use Master and Worker");
            }
            String path = "spec.pytorchReplicaSpecs." + type;
            Map<String, Object> replica = Trees.requiredMap(replicas, type, "spec.pytorchReplicaSpecs");
            result.add(new PodTemplate(path + ".template", Trees.requiredMap(replica, "template", path)));
        }
        return result;
    }

    static Map<String, Object> pytorchReplicaSpecs(Map<String, Object> document) {
        return Trees.requiredMap(Trees.requiredMap(document, "spec", ""), "pytorchReplicaSpecs", "spec");
    }
}
