package io.quotient.it.soak;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
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

    KubeflowLook {
        workloads = List.copyOf(workloads);
        notebooks = List.copyOf(notebooks);
        podNodes = Map.copyOf(podNodes);
    }

    /** A Kubeflow workload: its job's key ({@code team/name}: the job is named as the workload), kind, suspension. */
    record Workload(String key, String kind, boolean suspended) {
    }

    /**
     * A notebook's pod: its job's key (the job is named as the pod), the node it is bound to (null: not yet), and
     * whether it carries a required node affinity (admitted pinned).
     */
    record NotebookPod(String key, String node, boolean pinned) {
    }

    JsonObject toJson() {
        JsonObject o = new JsonObject();
        JsonArray ws = new JsonArray();
        for (Workload w : workloads) {
            JsonObject x = new JsonObject();
            x.addProperty("key", w.key());
            x.addProperty("kind", w.kind());
            x.addProperty("suspended", w.suspended());
            ws.add(x);
        }
        o.add("workloads", ws);
        JsonArray ns = new JsonArray();
        for (NotebookPod n : notebooks) {
            JsonObject x = new JsonObject();
            x.addProperty("key", n.key());
            x.addProperty("node", n.node());
            x.addProperty("pinned", n.pinned());
            ns.add(x);
        }
        o.add("notebooks", ns);
        JsonObject nodes = new JsonObject();
        podNodes.forEach((key, list) -> {
            JsonArray a = new JsonArray();
            list.forEach(a::add);
            nodes.add(key, a);
        });
        o.add("podNodes", nodes);
        return o;
    }

    static KubeflowLook fromJson(JsonObject o) {
        if (o == null) {
            return NONE;
        }
        List<Workload> workloads = new ArrayList<>();
        for (JsonElement e : Observation.array(o, "workloads")) {
            JsonObject x = e.getAsJsonObject();
            workloads.add(new Workload(Observation.text(x, "key"), Observation.text(x, "kind"),
                    x.get("suspended").getAsBoolean()));
        }
        List<NotebookPod> notebooks = new ArrayList<>();
        for (JsonElement e : Observation.array(o, "notebooks")) {
            JsonObject x = e.getAsJsonObject();
            notebooks.add(new NotebookPod(Observation.text(x, "key"), Observation.text(x, "node"),
                    x.get("pinned").getAsBoolean()));
        }
        Map<String, List<String>> podNodes = new LinkedHashMap<>();
        if (o.has("podNodes")) {
            o.getAsJsonObject("podNodes").entrySet().forEach(e -> {
                List<String> nodes = new ArrayList<>();
                e.getValue().getAsJsonArray().forEach(n -> nodes.add(n.getAsString()));
                podNodes.put(e.getKey(), nodes);
            });
        }
        return new KubeflowLook(workloads, notebooks, podNodes);
    }
}
