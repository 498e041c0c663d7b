package io.quotient.adapters.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pod template of a TrainJob's {@code node} pods, which a TrainJob does not hold as one: the runtime
 * (referenced, never copied) has it, the TrainJob adds the trainer container's fields in {@code spec.trainer} and
 * pod fields through {@code spec.runtimePatches}. Rendering edits a staged pod template like any other (labels,
 * image, command, env, resources, GPUs, service account, volumes), then {@link #fold} writes it back where Trainer
 * reads it: the container's image, command, args, env and resources into {@code spec.trainer} (Trainer takes the
 * node container's env only there), the pod's metadata, service account, volumes, pull secrets and the container's
 * volume mounts plus the placement into Quotient's own runtime patch ({@link TrainJobRuntimePatch}).
 */
final class TrainerPod {

    static final String PATH = "spec.trainer";
    /** The container fields that go to {@code spec.trainer} ({@code resources} becomes {@code resourcesPerNode}). */
    private static final List<String> TRAINER_FIELDS = List.of("image", "command", "args", "env");
    /** The pod fields a runtime patch may carry (the rest of the pod spec is the runtime's). */
    private static final List<String> PATCH_POD_FIELDS =
            List.of("serviceAccountName", "volumes", "imagePullSecrets", "tolerations", "nodeSelector");

    private TrainerPod() {}

    /** A pod template holding the trainer as its one container, named as the runtime's: {@code node}. */
    static PodTemplate stage(Map<String, Object> document) {
        Map<String, Object> spec = Trees.requiredMap(document, "spec", "");
        Object runtime = Trees.requiredMap(spec, "runtimeRef", "spec").get("name");
        if (!(runtime instanceof String name) || name.isBlank()) {
            throw new IllegalArgumentException("spec.runtimeRef.name is missing; name the training runtime whose "
                    + "pods the TrainJob runs (e.g. torch-distributed)");
        }
        Map<String, Object> trainer = Trees.requiredMap(spec, "trainer", "spec");
        if (!(trainer.get("image") instanceof String image) || image.isBlank()) {
            throw new IllegalArgumentException(
                    "spec.trainer.image is missing; give a default image so that " + "requests without one still run");
        }
        Map<String, Object> container = new LinkedHashMap<>();
        container.put("name", TrainJobRuntimePatch.TRAINER_CONTAINER);
        for (String field : TRAINER_FIELDS) {
            if (trainer.containsKey(field)) {
                container.put(field, Trees.deepCopy(trainer.get(field)));
            }
        }
        if (trainer.get("resourcesPerNode") instanceof Map<?, ?> resources) {
            container.put("resources", Trees.deepCopy(resources));
        }
        Map<String, Object> podSpec = new LinkedHashMap<>();
        podSpec.put("containers", new ArrayList<Object>(List.of(container)));
        Map<String, Object> pod = new LinkedHashMap<>();
        pod.put("metadata", new LinkedHashMap<String, Object>());
        pod.put("spec", podSpec);
        return new PodTemplate(PATH, pod);
    }

    /** The runtime the request names, of the kind the template references (its {@code runtimeRef.kind}). */
    static void useRuntime(Map<String, Object> document, String runtime) {
        Trees.requiredMap(Trees.requiredMap(document, "spec", ""), "runtimeRef", "spec")
                .put("name", runtime);
    }

    /**
     * Writes the edited staged pod back into the TrainJob and places it: {@code numNodes} is the number of placed
     * replicas, and Quotient's runtime patch pins the {@code node} pods to {@code nodes}.
     */
    static void fold(Map<String, Object> document, PodTemplate staged, List<String> nodes, Map<String, String> labels) {
        Map<String, Object> trainer = Trees.requiredMap(Trees.requiredMap(document, "spec", ""), "trainer", "spec");
        Map<String, Object> container = staged.mainContainer();
        for (String field : TRAINER_FIELDS) {
            if (container.containsKey(field)) {
                trainer.put(field, container.get(field));
            }
        }
        if (container.get("resources") instanceof Map<?, ?> resources) {
            trainer.put("resourcesPerNode", resources);
        }
        trainer.put("numNodes", nodes.size());
        TrainJobRuntimePatch.onNodes(nodes)
                .withPodLabels(labels)
                .withPodTemplate(patchPod(staged, container))
                .applyTo(document);
    }

    /** What of the staged pod goes into the runtime patch: metadata, the patchable pod fields, volume mounts. */
    private static Map<String, Object> patchPod(PodTemplate staged, Map<String, Object> container) {
        Map<String, Object> spec = new LinkedHashMap<>();
        for (String field : PATCH_POD_FIELDS) {
            if (staged.spec().containsKey(field)) {
                spec.put(field, staged.spec().get(field));
            }
        }
        if (container.get("volumeMounts") instanceof List<?> mounts) {
            Map<String, Object> mountsOnly = new LinkedHashMap<>();
            mountsOnly.put("name", TrainJobRuntimePatch.TRAINER_CONTAINER);
            mountsOnly.put("volumeMounts", mounts);
            spec.put("containers", List.of(mountsOnly));
        }
        Map<String, Object> pod = new LinkedHashMap<>();
        pod.put("metadata", staged.metadata());
        pod.put("spec", spec);
        return pod;
    }
}
