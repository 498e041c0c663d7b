package io.quotient.it.deploy;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import java.util.List;
import java.util.Map;

/** Workloads as a user writes them with kubectl (not through Quotient): built as objects, never as text. */
public final class ForeignWorkloads {

    static final String IMAGE = "busybox:1.36";

    private ForeignWorkloads() {}

    /** A batch Job with {@code gpus} whole GPUs (0: none) and the given pod template annotations. */
    static V1Job batchJob(String namespace, String name, int gpus, Map<String, String> annotations) {
        V1Container container = new V1Container().name("main").image(IMAGE).command(List.of("sleep", "3600"));
        if (gpus > 0) {
            container.resources(
                    new V1ResourceRequirements().limits(Map.of("nvidia.com/gpu", new Quantity(String.valueOf(gpus)))));
        }
        return new V1Job()
                .apiVersion("batch/v1")
                .kind("Job")
                .metadata(new V1ObjectMeta().name(name).namespace(namespace))
                .spec(new V1JobSpec()
                        .backoffLimit(0)
                        .template(new V1PodTemplateSpec()
                                .metadata(new V1ObjectMeta().annotations(annotations))
                                .spec(new V1PodSpec().restartPolicy("Never").containers(List.of(container)))));
    }

    /** A PyTorchJob of one Master and {@code replicas - 1} Workers with {@code gpus} GPUs each. */
    public static JsonObject pyTorchJob(String namespace, String name, int replicas, int gpus) {
        JsonObject specs = new JsonObject();
        specs.add("Master", replicaSpec(1, gpus));
        if (replicas > 1) {
            specs.add("Worker", replicaSpec(replicas - 1, gpus));
        }
        JsonObject spec = new JsonObject();
        spec.add("pytorchReplicaSpecs", specs);
        return object("kubeflow.org/v1", "PyTorchJob", namespace, name, spec);
    }

    /** A PyTorchJob of one Master asking for a share of a GPU the way a Run:ai user writes it (no GPU limit). */
    static JsonObject sharedPyTorchJob(String namespace, String name, String fraction) {
        JsonObject master = replicaSpec(1, 0);
        JsonObject template = master.getAsJsonObject("template");
        template.getAsJsonObject("spec")
                .getAsJsonArray("containers")
                .get(0)
                .getAsJsonObject()
                .remove("resources");
        JsonObject annotations = new JsonObject();
        annotations.addProperty("gpu-fraction", fraction);
        JsonObject metadata = new JsonObject();
        metadata.add("annotations", annotations);
        template.add("metadata", metadata);
        JsonObject specs = new JsonObject();
        specs.add("Master", master);
        JsonObject spec = new JsonObject();
        spec.add("pytorchReplicaSpecs", specs);
        return object("kubeflow.org/v1", "PyTorchJob", namespace, name, spec);
    }

    /** A TrainJob of {@code nodes} nodes with {@code gpus} GPUs each, on the runtime {@code runtime}. */
    public static JsonObject trainJob(String namespace, String name, String runtime, int nodes, int gpus) {
        JsonObject runtimeRef = new JsonObject();
        runtimeRef.addProperty("name", runtime);
        JsonObject trainer = new JsonObject();
        trainer.addProperty("numNodes", nodes);
        trainer.add("resourcesPerNode", gpuLimit(gpus));
        JsonObject spec = new JsonObject();
        spec.add("runtimeRef", runtimeRef);
        spec.add("trainer", trainer);
        return object("trainer.kubeflow.org/v1alpha1", "TrainJob", namespace, name, spec);
    }

    /** A ClusterTrainingRuntime whose {@code node} replicated job runs one container (as a platform team ships). */
    public static JsonObject clusterTrainingRuntime(String name) {
        return JsonParser.parseString("""
                {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "ClusterTrainingRuntime",
                 "metadata": {"name": "%s"},
                 "spec": {"mlPolicy": {"numNodes": 1, "torch": {}}, "template": {"spec": {"replicatedJobs": [
                   {"name": "node", "template": {"spec": {"template": {"spec": {"containers": [
                     {"name": "node", "image": "registry.example/torch:2"}]}}}}}]}}}}
                """.formatted(name)).getAsJsonObject();
    }

    /** A Notebook as a user writes it: its pod spec, and Run:ai annotations on the Notebook itself. */
    static JsonObject notebook(String namespace, String name, Map<String, String> annotations, JsonObject container) {
        JsonObject spec = new JsonObject();
        spec.add("template", podTemplate(container));
        JsonObject notebook = object("kubeflow.org/v1", "Notebook", namespace, name, spec);
        JsonObject notes = new JsonObject();
        annotations.forEach(notes::addProperty);
        notebook.getAsJsonObject("metadata").add("annotations", notes);
        return notebook;
    }

    private static JsonObject replicaSpec(int replicas, int gpus) {
        JsonObject container = new JsonObject();
        container.addProperty("name", "pytorch");
        container.addProperty("image", IMAGE);
        container.add("resources", gpuLimit(gpus));
        JsonObject replica = new JsonObject();
        replica.addProperty("replicas", replicas);
        replica.addProperty("restartPolicy", "OnFailure");
        replica.add("template", podTemplate(container));
        return replica;
    }

    /** A pod template of one container. */
    private static JsonObject podTemplate(JsonObject container) {
        JsonArray containers = new JsonArray();
        containers.add(container);
        JsonObject podSpec = new JsonObject();
        podSpec.add("containers", containers);
        JsonObject template = new JsonObject();
        template.add("spec", podSpec);
        return template;
    }

    /** Resources with a limit of {@code gpus} whole GPUs. */
    private static JsonObject gpuLimit(int gpus) {
        JsonObject limits = new JsonObject();
        limits.addProperty("nvidia.com/gpu", gpus);
        JsonObject resources = new JsonObject();
        resources.add("limits", limits);
        return resources;
    }

    private static JsonObject object(String apiVersion, String kind, String namespace, String name, JsonObject spec) {
        JsonObject metadata = new JsonObject();
        metadata.addProperty("name", name);
        metadata.addProperty("namespace", namespace);
        JsonObject object = new JsonObject();
        object.addProperty("apiVersion", apiVersion);
        object.addProperty("kind", kind);
        object.add("metadata", metadata);
        object.add("spec", spec);
        return object;
    }
}
