package io.quotient.it.soak;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * The part of a look at the API server about workloads created directly in the teams' own namespaces (issue 12's
 * admission webhook): the PyTorchJobs and TrainJobs there, the notebook-like GPU pods there, and where the running
 * pods of each multi-pod job are bound. Histories written before it have none ({@link #NONE}).
 *
 * @param workloads every PyTorchJob and TrainJob of a team namespace not being deleted
 * @param notebooks every bare GPU pod (no owner) of a team namespace that is Pending or Running and not being deleted
 * @param podNodes  per job ({@code team/job}) with more than one running pod, the nodes those pods are bound to
 */
record KubeflowLook(List<Workload> workloads, List<NotebookPod> notebooks, Map<String, List<String>> podNodes) {

    static final KubeflowLook NONE = new KubeflowLook(List.of(), List.of(), Map.of());

    private static final Gson GSON = new Gson();

    /** A part missing from a history (read by Gson) is empty. */
    KubeflowLook {
        workloads = workloads == null ? List.of() : List.copyOf(workloads);
        notebooks = notebooks == null ? List.of() : List.copyOf(notebooks);
        podNodes = podNodes == null ? Map.of() : Map.copyOf(podNodes);
    }

    /** A Kubeflow workload: its job's key ({@code team/name}: the job is named as the workload), kind, suspension. */
    record Workload(String key, String kind, boolean suspended) {}

    /**
     * A notebook's pod: its job's key (the job is named as the pod), the node it is bound to (null: not yet), and
     * whether it carries a required node affinity (admitted pinned).
     */
    record NotebookPod(String key, String node, boolean pinned) {}

    /** The look as the history writes it (Gson writes records by their components). */
    JsonObject toJson() {
        return GSON.toJsonTree(this).getAsJsonObject();
    }

    static KubeflowLook fromJson(JsonObject o) {
        return o == null ? NONE : GSON.fromJson(o, KubeflowLook.class);
    }
}
