package io.quotient.adapters.k8s.adoption;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.PodGpuAsk;
import io.quotient.core.model.ReplicaGroup;
import io.quotient.core.request.ForeignDemand;
import io.quotient.core.request.ForeignGpuRequests;
import io.quotient.core.request.RequestException;
import io.quotient.deploy.port.WorkloadRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The kinds of workloads created outside Quotient (kubectl, the Kubeflow UI, an SDK, a CronJob) that Quotient adopts:
 * where each keeps its pod templates and GPU limits, and where its {@code suspend} switch is. Everything about a kind's
 * layout lives here, so the webhook and the adoption read every kind the same way.
 */
public enum ForeignWorkloadKind {

    /**
     * batch/v1 Job (also those a CronJob creates): one pod template; {@code spec.suspend} (1.21+, on by default 1.22).
     * It runs {@code parallelism} pods at once, fewer when {@code completions} is smaller (as Kueue counts a Job's pod
     * set): several form a gang, one pod per node, held until the Job ends whatever its completions.
     */
    BATCH_JOB("batch", "v1", "Job", "jobs", List.of("spec", "suspend")) {
        @Override
        List<ReplicaGroup> replicaGroups(JsonObject workload) {
            JsonObject spec = JsonTree.object(workload, "spec");
            int parallelism = JsonTree.integer(spec, "parallelism", 1);
            int completions = JsonTree.integer(spec, "completions", parallelism);
            // a negative count is refused by name below (ForeignGpuRequests), so only a smaller completions counts
            int atOnce = completions >= 0 && completions < parallelism ? completions : parallelism;
            return List.of(new ReplicaGroup(
                    "spec.parallelism", atOnce, podTemplateAsk("spec.template", JsonTree.object(spec, "template"))));
        }
    },

    /** kubeflow.org/v1 PyTorchJob: a template per replica type (Master, Worker); {@code spec.runPolicy.suspend}. */
    PYTORCH_JOB("kubeflow.org", "v1", "PyTorchJob", "pytorchjobs", List.of("spec", "runPolicy", "suspend")) {
        @Override
        List<ReplicaGroup> replicaGroups(JsonObject workload) {
            List<ReplicaGroup> groups = new ArrayList<>();
            JsonObject specs = JsonTree.object(workload, "spec", "pytorchReplicaSpecs");
            if (specs != null) {
                for (Map.Entry<String, JsonElement> replica : specs.entrySet()) {
                    if (!replica.getValue().isJsonObject()) {
                        continue;
                    }
                    JsonObject spec = replica.getValue().getAsJsonObject();
                    String field = "spec.pytorchReplicaSpecs." + replica.getKey();
                    groups.add(new ReplicaGroup(
                            field + ".replicas",
                            JsonTree.integer(spec, "replicas", 1),
                            podTemplateAsk(field + ".template", JsonTree.object(spec, "template"))));
                }
            }
            return groups;
        }
    },

    /**
     * trainer.kubeflow.org/v1alpha1 TrainJob: {@code trainer.numNodes} nodes with {@code trainer.resourcesPerNode} each
     * (the runtime's defaults are not read: a TrainJob that leaves them out is taken as one node); Run:ai annotations
     * on the TrainJob itself; {@code spec.suspend}.
     */
    TRAIN_JOB("trainer.kubeflow.org", "v1alpha1", "TrainJob", "trainjobs", List.of("spec", "suspend")) {
        @Override
        List<ReplicaGroup> replicaGroups(JsonObject workload) {
            JsonObject trainer = JsonTree.object(workload, "spec", "trainer");
            Map<String, String> limits = new LinkedHashMap<>();
            String gpus = JsonTree.text(JsonTree.object(trainer, "resourcesPerNode", "limits"), GPU_RESOURCE);
            if (gpus != null) {
                limits.put("spec.trainer.resourcesPerNode.limits[" + GPU_RESOURCE + "]", gpus);
            }
            PodGpuAsk ask = new PodGpuAsk(
                    "metadata.annotations",
                    JsonTree.strings(JsonTree.object(workload, "metadata", "annotations")),
                    limits);
            return List.of(new ReplicaGroup("spec.trainer.numNodes", JsonTree.integer(trainer, "numNodes", 1), ask));
        }
    };

    static final String GPU_RESOURCE = "nvidia.com/gpu";
    private static final String SHARE_ANNOTATIONS = "metadata.annotations[gpu-fraction|gpu-memory]";

    private final String group;
    private final String version;
    private final String kind;
    private final String plural;
    private final List<String> suspendPath;

    ForeignWorkloadKind(String group, String version, String kind, String plural, List<String> suspendPath) {
        this.group = group;
        this.version = version;
        this.kind = kind;
        this.plural = plural;
        this.suspendPath = suspendPath;
    }

    /** The kind of an admission request's {@code kind} (group, version, kind), or empty for any other. */
    public static Optional<ForeignWorkloadKind> of(String group, String version, String kind) {
        for (ForeignWorkloadKind candidate : values()) {
            if (candidate.group.equals(group == null ? "" : group)
                    && candidate.version.equals(version)
                    && candidate.kind.equals(kind)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** The kind of the workload a job governs. */
    public static Optional<ForeignWorkloadKind> of(WorkloadRef ref) {
        int slash = ref.apiVersion().indexOf('/');
        return slash < 0
                ? of("", ref.apiVersion(), ref.kind())
                : of(ref.apiVersion().substring(0, slash), ref.apiVersion().substring(slash + 1), ref.kind());
    }

    /** What each kind of replica of {@code workload} asks for, with the fields they were read from. */
    abstract List<ReplicaGroup> replicaGroups(JsonObject workload);

    /**
     * The workload's GPU demand, checked, or empty when it asks for none. Several replicas (a PyTorchJob's, a TrainJob's
     * nodes, a parallel batch Job's pods) are one gang, placed all or nothing. A share of a GPU is bound at placement through pod template annotations ({@link ShareEnvPatch});
     * a TrainJob's pods come from its runtime, where Quotient places only node affinity: its shares are refused.
     *
     * @throws RequestException naming the field and the reason
     */
    public Optional<ForeignDemand> demand(JsonObject workload) {
        Optional<ForeignDemand> demand = ForeignGpuRequests.demand(replicaGroups(workload));
        if (demand.isPresent() && this == TRAIN_JOB && !(demand.get().perReplica() instanceof GpuRequest.WholeGpus)) {
            throw new RequestException(
                    SHARE_ANNOTATIONS,
                    "shares of a GPU are not supported for a TrainJob (its"
                            + " trainer's pods come from the training runtime, which Quotient does not change); ask for whole"
                            + " GPUs in trainer.resourcesPerNode, or run the share as a batch Job or a PyTorchJob");
        }
        return demand;
    }

    /**
     * Where the workload's pod templates are (e.g. spec, pytorchReplicaSpecs, Worker, template); a TrainJob has none of
     * its own (its pods come from the runtime, placed through {@code spec.runtimePatches}).
     */
    List<List<String>> podTemplatePaths(JsonObject workload) {
        if (this == BATCH_JOB) {
            return List.of(List.of("spec", "template"));
        }
        List<List<String>> paths = new ArrayList<>();
        if (this == PYTORCH_JOB) {
            JsonObject specs = JsonTree.object(workload, "spec", "pytorchReplicaSpecs");
            if (specs != null) {
                specs.keySet()
                        .forEach(replica -> paths.add(List.of("spec", "pytorchReplicaSpecs", replica, "template")));
            }
        }
        return paths;
    }

    /** Whether the stored workload is suspended. */
    boolean suspended(JsonObject workload) {
        JsonObject parent = JsonTree.object(
                workload, suspendPath.subList(0, suspendPath.size() - 1).toArray(String[]::new));
        return "true".equals(JsonTree.text(parent, suspendPath.get(suspendPath.size() - 1)));
    }

    /** Where the workload's suspend switch is, from the root (e.g. spec, runPolicy, suspend). */
    List<String> suspendPath() {
        return suspendPath;
    }

    public String group() {
        return group;
    }

    public String version() {
        return version;
    }

    public String kind() {
        return kind;
    }

    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    public String plural() {
        return plural;
    }

    /**
     * A pod template's (or a pod's, with an empty {@code field}) annotations and its containers' GPU limits (init
     * containers are not counted).
     */
    static PodGpuAsk podTemplateAsk(String field, JsonObject template) {
        String prefix = field.isEmpty() ? "" : field + ".";
        Map<String, String> limits = new LinkedHashMap<>();
        JsonObject podSpec = JsonTree.object(template, "spec");
        JsonElement containers = podSpec == null ? null : podSpec.get("containers");
        if (containers != null && containers.isJsonArray()) {
            JsonArray list = containers.getAsJsonArray();
            for (int i = 0; i < list.size(); i++) {
                JsonObject container = list.get(i).isJsonObject() ? list.get(i).getAsJsonObject() : null;
                String gpus = JsonTree.text(JsonTree.object(container, "resources", "limits"), GPU_RESOURCE);
                if (gpus != null) {
                    limits.put(prefix + "spec.containers[" + i + "].resources.limits[" + GPU_RESOURCE + "]", gpus);
                }
            }
        }
        return new PodGpuAsk(
                prefix + "metadata.annotations",
                JsonTree.strings(JsonTree.object(template, "metadata", "annotations")),
                limits);
    }
}
