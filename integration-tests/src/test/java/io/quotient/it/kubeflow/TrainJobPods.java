package io.quotient.it.kubeflow;

import static io.quotient.it.kubeflow.TrainingPods.array;
import static io.quotient.it.kubeflow.TrainingPods.at;
import static io.quotient.it.kubeflow.TrainingPods.object;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The pods Kubeflow Trainer (through a JobSet and its indexed Jobs) makes for a TrainJob, reduced to the trainer:
 * {@code numNodes} pods of the runtime's {@code node} replicated job, named {@code <trainjob>-node-0-<index>} as
 * JobSet names them. The trainer's image, command, args, env and {@code resourcesPerNode} go to the {@code node}
 * container; then every {@code runtimePatches} entry is applied in order (pod labels and annotations, nodeSelector,
 * affinity, tolerations, service account, volumes, image pull secrets, and per container env and volume mounts).
 * Initializer jobs are not played.
 */
final class TrainJobPods {

    static final String JOBSET_NAME_LABEL = "jobset.sigs.k8s.io/jobset-name";
    static final String REPLICATED_JOB_LABEL = "jobset.sigs.k8s.io/replicatedjob-name";
    static final String COMPLETION_INDEX_LABEL = "batch.kubernetes.io/job-completion-index";
    static final String NODE_JOB = "node";

    private TrainJobPods() {}

    static boolean suspended(JsonObject trainJob) {
        return TrainingPods.isTrue(trainJob, "spec", "suspend");
    }

    static List<JsonObject> desired(JsonObject trainJob, JsonObject runtime) {
        JsonObject nodeJob = replicatedJob(at(runtime, "spec", "template", "spec", "replicatedJobs"));
        if (nodeJob == null) {
            throw new IllegalStateException(
                    "runtime " + TrainingPods.name(runtime) + " has no '" + NODE_JOB + "' replicated job");
        }
        JsonElement template = at(nodeJob, "template", "spec", "template");
        int numNodes = numNodes(trainJob, runtime);
        List<JsonObject> pods = new ArrayList<>();
        for (int index = 0; index < numNodes; index++) {
            JsonObject pod = TrainingPods.fromTemplate(
                    template == null ? null : template.getAsJsonObject(),
                    trainJob,
                    TrainingPods.name(trainJob) + "-" + NODE_JOB + "-0-" + index,
                    Map.of(
                            JOBSET_NAME_LABEL,
                            TrainingPods.name(trainJob),
                            REPLICATED_JOB_LABEL,
                            NODE_JOB,
                            COMPLETION_INDEX_LABEL,
                            Integer.toString(index)));
            pod.getAsJsonObject("spec").addProperty("restartPolicy", "Never");
            applyTrainer(pod, at(trainJob, "spec", "trainer"));
            JsonElement patches = at(trainJob, "spec", "runtimePatches");
            if (patches != null) {
                for (JsonElement patch : patches.getAsJsonArray()) {
                    applyPatch(pod, patch.getAsJsonObject());
                }
            }
            pods.add(pod);
        }
        return pods;
    }

    private static int numNodes(JsonObject trainJob, JsonObject runtime) {
        JsonElement fromJob = at(trainJob, "spec", "trainer", "numNodes");
        JsonElement fromRuntime = at(runtime, "spec", "mlPolicy", "numNodes");
        return fromJob != null ? fromJob.getAsInt() : fromRuntime != null ? fromRuntime.getAsInt() : 1;
    }

    private static void applyTrainer(JsonObject pod, JsonElement trainer) {
        if (trainer == null) {
            return;
        }
        JsonObject container = container(pod.getAsJsonObject("spec"), "containers", NODE_JOB);
        for (String field : List.of("image", "command", "args")) {
            if (trainer.getAsJsonObject().has(field)) {
                container.add(field, trainer.getAsJsonObject().get(field).deepCopy());
            }
        }
        JsonElement env = at(trainer.getAsJsonObject(), "env");
        if (env != null) {
            array(container, "env").addAll(env.getAsJsonArray().deepCopy());
        }
        JsonElement resources = at(trainer.getAsJsonObject(), "resourcesPerNode");
        if (resources != null) {
            container.add("resources", resources.deepCopy());
        }
    }

    private static void applyPatch(JsonObject pod, JsonObject patch) {
        JsonObject nodeJobPatch = replicatedJob(at(patch, "trainingRuntimeSpec", "template", "spec", "replicatedJobs"));
        JsonElement podPatch = nodeJobPatch == null ? null : at(nodeJobPatch, "template", "spec", "template");
        if (podPatch == null) {
            return;
        }
        JsonObject metadata = pod.getAsJsonObject("metadata");
        for (String map : List.of("labels", "annotations")) {
            JsonElement values = at(podPatch.getAsJsonObject(), "metadata", map);
            if (values != null) {
                values.getAsJsonObject()
                        .entrySet()
                        .forEach(e -> object(metadata, map).add(e.getKey(), e.getValue()));
            }
        }
        JsonElement specPatch = at(podPatch.getAsJsonObject(), "spec");
        if (specPatch != null) {
            applyPodSpecPatch(pod.getAsJsonObject("spec"), specPatch.getAsJsonObject());
        }
    }

    private static void applyPodSpecPatch(JsonObject spec, JsonObject patch) {
        for (Map.Entry<String, JsonElement> field : patch.entrySet()) {
            String key = field.getKey();
            JsonElement value = field.getValue();
            switch (key) {
                case "nodeSelector" ->
                    value.getAsJsonObject()
                            .entrySet()
                            .forEach(e -> object(spec, key).add(e.getKey(), e.getValue()));
                case "tolerations", "volumes", "imagePullSecrets", "schedulingGates" ->
                    array(spec, key).addAll(value.getAsJsonArray().deepCopy());
                case "containers", "initContainers" -> {
                    for (JsonElement containerPatch : value.getAsJsonArray()) {
                        JsonObject target = container(
                                spec,
                                key,
                                containerPatch.getAsJsonObject().get("name").getAsString());
                        for (String list : List.of("env", "volumeMounts")) {
                            JsonElement items = containerPatch.getAsJsonObject().get(list);
                            if (items != null) {
                                array(target, list)
                                        .addAll(items.getAsJsonArray().deepCopy());
                            }
                        }
                    }
                }
                default -> spec.add(key, value.deepCopy());
            }
        }
    }

    private static JsonObject replicatedJob(JsonElement replicatedJobs) {
        if (replicatedJobs == null) {
            return null;
        }
        for (JsonElement job : replicatedJobs.getAsJsonArray()) {
            if (NODE_JOB.equals(job.getAsJsonObject().get("name").getAsString())) {
                return job.getAsJsonObject();
            }
        }
        return null;
    }

    private static JsonObject container(JsonObject spec, String list, String name) {
        JsonArray containers = array(spec, list);
        for (JsonElement container : containers) {
            if (name.equals(container.getAsJsonObject().get("name").getAsString())) {
                return container.getAsJsonObject();
            }
        }
        JsonObject created = new JsonObject();
        created.addProperty("name", name);
        containers.add(created);
        return created;
    }
}
