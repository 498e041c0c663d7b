package io.quotient.adapters.template;

import static io.quotient.adapters.template.TreePaths.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Quotient's {@code runtimePatches} entry of a TrainJob: what it pins, and that other managers' entries stay. */
class TrainJobRuntimePatchTest {

    private static final List<String> NODES = List.of("gpu-node-2", "gpu-node-5", "gpu-node-7", "gpu-node-9");
    private static final Map<String, String> LABELS = Map.of("quotient.io/team", "team-a", "quotient.io/job", "llm");
    private static final String NODE_POD = "trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template";

    @Test
    void aGangEntryPinsTheNodePodsToTheChosenNodesOnePerNode() {
        Map<String, Object> entry =
                TrainJobRuntimePatch.onNodes(NODES).withPodLabels(LABELS).entry();

        assertThat(entry).containsEntry("manager", "quotient.io/scheduler");
        assertThat((String) at(entry, "trainingRuntimeSpec.template.spec.replicatedJobs[0].name"))
                .isEqualTo("node");
        Map<String, Object> pod = at(entry, NODE_POD);
        assertThat((Map<String, Object>) at(pod, "metadata.labels")).isEqualTo(Map.copyOf(LABELS));
        Map<String, Object> expression = at(
                pod,
                "spec.affinity.nodeAffinity"
                        + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]");
        assertThat(expression)
                .containsEntry("key", "kubernetes.io/hostname")
                .containsEntry("operator", "In")
                .containsEntry("values", NODES);
        Map<String, Object> apart =
                at(pod, "spec.affinity.podAntiAffinity" + ".requiredDuringSchedulingIgnoredDuringExecution[0]");
        assertThat(apart).containsEntry("topologyKey", "kubernetes.io/hostname");
        assertThat((Map<String, Object>) at(apart, "labelSelector.matchLabels")).isEqualTo(Map.copyOf(LABELS));
        assertThat(((Map<String, Object>) at(pod, "spec")).keySet()).containsExactly("affinity");
    }

    @Test
    void aSingleNodeEntryHasNoAntiAffinityAndCarriesTolerations() {
        Map<String, Object> toleration =
                Map.of("key", "pool", "operator", "Equal", "value", "a100", "effect", "NoSchedule");

        Map<String, Object> entry = TrainJobRuntimePatch.onNodes(List.of("gpu-node-2"))
                .withPodLabels(LABELS)
                .withTolerations(List.of(toleration))
                .entry();

        Map<String, Object> pod = at(entry, NODE_POD);
        assertThat((Object) at(pod, "spec.affinity.podAntiAffinity")).isNull();
        assertThat((List<Object>) at(
                        pod,
                        "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
                                + ".nodeSelectorTerms[0].matchExpressions[0].values"))
                .containsExactly("gpu-node-2");
        assertThat((List<Object>) at(pod, "spec.tolerations")).containsExactly(toleration);
    }

    @Test
    void applyingReplacesOnlyQuotientsEntryAndKeepsTheOthersInPlace() {
        Map<String, Object> kueue = patch("kueue.x-k8s.io/manager", "pool", "spot");
        Map<String, Object> user = patch("example.io/platform-team", "node-type", "training");
        Map<String, Object> stale = patch(TrainJobRuntimePatch.MANAGER, "old", "placement");
        Map<String, Object> trainJob = trainJob(kueue, stale, user);

        TrainJobRuntimePatch.onNodes(NODES.subList(0, 2)).withPodLabels(LABELS).applyTo(trainJob);

        List<Object> patches = at(trainJob, "spec.runtimePatches");
        assertThat(patches).hasSize(3);
        assertThat(patches.get(0)).isEqualTo(patch("kueue.x-k8s.io/manager", "pool", "spot"));
        assertThat(patches.get(2)).isEqualTo(patch("example.io/platform-team", "node-type", "training"));
        assertThat((Object) at(patches.get(1), NODE_POD + ".spec.nodeSelector")).isNull();
        assertThat(
                        (List<Object>)
                                at(
                                        patches.get(1),
                                        NODE_POD + ".spec.affinity.nodeAffinity"
                                                + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values"))
                .containsExactly("gpu-node-2", "gpu-node-5");
    }

    @Test
    void applyingAddsTheEntryAtTheEndAndTheEnvToTheTrainer() {
        Map<String, Object> trainJob = trainJob(patch("kueue.x-k8s.io/manager", "pool", "spot"));
        Map<String, Object> trainer = new LinkedHashMap<>();
        trainer.put("numNodes", 1);
        trainer.put("env", new ArrayList<>(List.of(env("EPOCHS", "3"), env("NVIDIA_VISIBLE_DEVICES", "stale"))));
        ((Map<String, Object>) trainJob.get("spec")).put("trainer", trainer);

        TrainJobRuntimePatch placement = TrainJobRuntimePatch.onNodes(List.of("gpu-node-2"))
                .withPodLabels(LABELS)
                .withEnv(Map.of("NVIDIA_VISIBLE_DEVICES", "GPU-1234", "GPU_MEMORY_LIMIT", "42"));
        placement.applyTo(trainJob);

        List<Map<String, Object>> patches = at(trainJob, "spec.runtimePatches");
        assertThat(patches)
                .extracting(p -> p.get("manager"))
                .containsExactly("kueue.x-k8s.io/manager", TrainJobRuntimePatch.MANAGER);
        assertThat((List<Object>) at(trainJob, "spec.trainer.env"))
                .containsExactly(
                        env("EPOCHS", "3"), env("NVIDIA_VISIBLE_DEVICES", "GPU-1234"), env("GPU_MEMORY_LIMIT", "42"));
        assertThat(placement.trainerEnv())
                .containsExactly(env("GPU_MEMORY_LIMIT", "42"), env("NVIDIA_VISIBLE_DEVICES", "GPU-1234"));
        // the env is the trainer's: Trainer forbids container env for the node container in a runtime patch
        assertThat((Object) at(patches.get(1), NODE_POD + ".spec.containers")).isNull();
    }

    @Test
    void applyingTwiceLeavesOneEntryAndRemovingLeavesTheOthers() {
        Map<String, Object> trainJob = trainJob(patch("kueue.x-k8s.io/manager", "pool", "spot"));
        TrainJobRuntimePatch placement = TrainJobRuntimePatch.onNodes(NODES).withPodLabels(LABELS);

        placement.applyTo(trainJob);
        placement.applyTo(trainJob);
        assertThat((List<Object>) at(trainJob, "spec.runtimePatches")).hasSize(2);

        TrainJobRuntimePatch.removeFrom(trainJob);
        assertThat((List<Object>) at(trainJob, "spec.runtimePatches"))
                .containsExactly(patch("kueue.x-k8s.io/manager", "pool", "spot"));
    }

    @Test
    void aPlacementWithoutNodesOrWithANodeTwiceIsRefused() {
        assertThatThrownBy(() -> TrainJobRuntimePatch.onNodes(List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one node");
        assertThatThrownBy(() -> TrainJobRuntimePatch.onNodes(List.of("n1", "n2", "n1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("names a node twice");
        assertThatThrownBy(() -> TrainJobRuntimePatch.onNodes(NODES).entry())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("withPodLabels");
    }

    @Test
    void theEntryIsAFreshTreeEachTime() {
        TrainJobRuntimePatch placement = TrainJobRuntimePatch.onNodes(NODES).withPodLabels(LABELS);
        Map<String, Object> first = placement.entry();
        first.put("manager", "changed");

        assertThat(placement.entry()).containsEntry("manager", TrainJobRuntimePatch.MANAGER);
    }

    private static Map<String, Object> trainJob(Map<String, Object>... patches) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("runtimePatches", new ArrayList<>(List.of(patches)));
        Map<String, Object> trainJob = new LinkedHashMap<>();
        trainJob.put("apiVersion", "trainer.kubeflow.org/v1alpha1");
        trainJob.put("kind", "TrainJob");
        trainJob.put("spec", spec);
        return trainJob;
    }

    /** Another manager's entry: a nodeSelector on the node pods. */
    private static Map<String, Object> patch(String manager, String key, String value) {
        Map<String, Object> nodeJob = Map.of(
                "name",
                "node",
                "template",
                Map.of("spec", Map.of("template", Map.of("spec", Map.of("nodeSelector", Map.of(key, value))))));
        return Trees.deepCopy(Map.of(
                "manager",
                manager,
                "trainingRuntimeSpec",
                Map.of("template", Map.of("spec", Map.of("replicatedJobs", List.of(nodeJob))))));
    }

    private static Map<String, Object> env(String name, String value) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("name", name);
        item.put("value", value);
        return item;
    }
}
