package io.quotient.adapters.k8s.adoption;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.quotient.core.model.JobId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Placing an adopted workload pins every pod template and unsuspends it; taking it back restores the author's. */
class PlacementPatchTest {

    private static final Map<String, String> LABELS = AdoptedWorkloadGateway.labels(new JobId("team-a", "llm"));

    private static final String USER_AFFINITY = """
            {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
              {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}]}}}""";

    private static JsonObject pyTorchJob(String affinity) {
        String template = "{\"spec\": {" + (affinity == null ? "" : "\"affinity\": " + affinity + ", ")
                + "\"containers\": [{\"name\": \"pytorch\", \"image\": \"t\", \"ports\": [{\"containerPort\": 23456}]}]}}";
        return JsonParser.parseString("{\"apiVersion\": \"kubeflow.org/v1\", \"kind\": \"PyTorchJob\","
                        + " \"metadata\": {\"name\": \"llm\"}, \"spec\": {\"runPolicy\": {\"suspend\": true},"
                        + " \"pytorchReplicaSpecs\": {\"Master\": {\"replicas\": 1, \"template\": " + template + "},"
                        + " \"Worker\": {\"replicas\": 3, \"template\": " + template + "}}}}")
                .getAsJsonObject();
    }

    @Test
    void aGangIsPinnedToItsNodesOnePerNodeKeepingTheAuthorsTermsAndUnsuspended() {
        JsonObject patch = PlacementPatch.place(
                ForeignWorkloadKind.PYTORCH_JOB,
                pyTorchJob(USER_AFFINITY),
                LABELS,
                List.of("n1", "n2", "n3", "n4"),
                true,
                Map.of());
        assertThat(patch.getAsJsonObject("spec")
                        .getAsJsonObject("runPolicy")
                        .get("suspend")
                        .getAsBoolean())
                .isFalse();
        for (String replica : List.of("Master", "Worker")) {
            JsonObject template = patch.getAsJsonObject("spec")
                    .getAsJsonObject("pytorchReplicaSpecs")
                    .getAsJsonObject(replica)
                    .getAsJsonObject("template");
            assertThat(template.getAsJsonObject("metadata")
                            .getAsJsonObject("labels")
                            .get("quotient.io/job")
                            .getAsString())
                    .isEqualTo("llm");
            assertThat(template.getAsJsonObject("spec").keySet()).containsExactly("affinity");
            JsonObject affinity = template.getAsJsonObject("spec").getAsJsonObject("affinity");
            assertThat(affinity).isEqualTo(JsonParser.parseString("""
                    {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                      {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]},
                        {"key": "kubernetes.io/hostname", "operator": "In", "values": ["n1", "n2", "n3", "n4"]}]}]}},
                     "podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                      {"labelSelector": {"matchLabels": {"app.kubernetes.io/managed-by": "quotient",
                        "quotient.io/job": "llm", "quotient.io/team": "team-a"}},
                       "topologyKey": "kubernetes.io/hostname"}]}}"""));
        }
    }

    @Test
    void placingAgainReplacesTheEarlierPlacementAndTakingItBackRestoresTheAuthorsAffinity() {
        JsonObject workload = pyTorchJob(USER_AFFINITY);
        JsonObject first = PlacementPatch.place(
                ForeignWorkloadKind.PYTORCH_JOB, workload, LABELS, List.of("n1", "n2"), true, Map.of());
        JsonObject placed = workload.deepCopy();
        for (String replica : List.of("Master", "Worker")) {
            placed.getAsJsonObject("spec")
                    .getAsJsonObject("pytorchReplicaSpecs")
                    .getAsJsonObject(replica)
                    .getAsJsonObject("template")
                    .getAsJsonObject("spec")
                    .add(
                            "affinity",
                            first.getAsJsonObject("spec")
                                    .getAsJsonObject("pytorchReplicaSpecs")
                                    .getAsJsonObject(replica)
                                    .getAsJsonObject("template")
                                    .getAsJsonObject("spec")
                                    .get("affinity"));
        }
        JsonObject again =
                PlacementPatch.place(ForeignWorkloadKind.PYTORCH_JOB, placed, LABELS, List.of("n3"), false, Map.of());
        assertThat(again.getAsJsonObject("spec")
                        .getAsJsonObject("pytorchReplicaSpecs")
                        .getAsJsonObject("Master")
                        .getAsJsonObject("template")
                        .getAsJsonObject("spec")
                        .getAsJsonObject("affinity")
                        .toString())
                .contains("[\"n3\"]")
                .doesNotContain("n1")
                .doesNotContain("podAntiAffinity");

        JsonObject back = PlacementPatch.takeBack(ForeignWorkloadKind.PYTORCH_JOB, placed, LABELS)
                .get(0);
        assertThat(back.getAsJsonObject("spec")
                        .getAsJsonObject("runPolicy")
                        .get("suspend")
                        .getAsBoolean())
                .isTrue();
        assertThat(back.getAsJsonObject("spec")
                        .getAsJsonObject("pytorchReplicaSpecs")
                        .getAsJsonObject("Worker")
                        .getAsJsonObject("template")
                        .getAsJsonObject("spec")
                        .get("affinity"))
                .isEqualTo(JsonParser.parseString(USER_AFFINITY));
    }

    @Test
    void takingBackAPlacementOfAWorkloadWithoutAffinityRemovesIt() {
        JsonObject back = PlacementPatch.takeBack(
                        ForeignWorkloadKind.BATCH_JOB,
                        JsonParser.parseString("""
                {"spec": {"suspend": false, "template": {"spec": {"affinity": {"nodeAffinity": {
                  "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [
                    {"key": "kubernetes.io/hostname", "operator": "In", "values": ["n1"]}]}]}}},
                  "containers": []}}}}""").getAsJsonObject(),
                        LABELS)
                .get(0);
        assertThat(back).isEqualTo(JsonParser.parseString("""
                {"spec": {"suspend": true, "template": {"spec": {"affinity": null}}}}"""));
    }

    @Test
    void aTrainJobIsPlacedThroughQuotientsOwnRuntimePatchKeepingOtherManagersEntries() {
        JsonObject trainJob = JsonParser.parseString("""
                {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob", "metadata": {"name": "tj"},
                 "spec": {"suspend": true, "runtimeRef": {"name": "torch-distributed"},
                  "trainer": {"numNodes": 2, "resourcesPerNode": {"limits": {"nvidia.com/gpu": 8}}},
                  "runtimePatches": [{"manager": "example.io/platform-team"}]}}""").getAsJsonObject();
        JsonObject patch = PlacementPatch.place(
                ForeignWorkloadKind.TRAIN_JOB, trainJob, LABELS, List.of("n1", "n2"), true, Map.of());
        assertThat(patch.getAsJsonObject("spec").get("suspend").getAsBoolean()).isFalse();
        var entries = patch.getAsJsonObject("spec").getAsJsonArray("runtimePatches");
        assertThat(entries).hasSize(2);
        assertThat(entries.get(0).getAsJsonObject().get("manager").getAsString())
                .isEqualTo("example.io/platform-team");
        assertThat(entries.get(1).getAsJsonObject().get("manager").getAsString())
                .isEqualTo("quotient.io/scheduler");
        assertThat(entries.get(1).toString())
                .contains("\"n1\"", "\"n2\"", "podAntiAffinity", "\"quotient.io/job\":\"llm\"");

        trainJob.getAsJsonObject("spec").add("runtimePatches", entries);
        List<JsonObject> back = PlacementPatch.takeBack(ForeignWorkloadKind.TRAIN_JOB, trainJob, LABELS);
        assertThat(back.get(0))
                .as("suspended first")
                .isEqualTo(JsonParser.parseString("{\"spec\": {\"suspend\": true}}"));
        assertThat(back.get(1))
                .isEqualTo(JsonParser.parseString(
                        "{\"spec\": {\"runtimePatches\": [{\"manager\": \"example.io/platform-team\"}]}}"));
    }

    @Test
    void aSharesBindingGoesOnThePodTemplateWithItsPlacementAndLeavesWithIt() {
        JsonObject job = JsonParser.parseString("""
                {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "ingest"},
                 "spec": {"suspend": true, "template": {"metadata": {"annotations": {"gpu-fraction": "0.5"}},
                  "spec": {"containers": [{"name": "main", "image": "t"}]}}}}""").getAsJsonObject();
        Map<String, String> binding = Map.of("quotient.io/env.NVIDIA_VISIBLE_DEVICES", "GPU-1234");

        JsonObject patch =
                PlacementPatch.place(ForeignWorkloadKind.BATCH_JOB, job, LABELS, List.of("n1"), false, binding);
        JsonObject metadata =
                patch.getAsJsonObject("spec").getAsJsonObject("template").getAsJsonObject("metadata");
        assertThat(metadata.getAsJsonObject("annotations")
                        .get("quotient.io/env.NVIDIA_VISIBLE_DEVICES")
                        .getAsString())
                .isEqualTo("GPU-1234");
        assertThat(metadata.getAsJsonObject("labels").get("quotient.io/job").getAsString())
                .isEqualTo("llm");

        job.getAsJsonObject("spec")
                .getAsJsonObject("template")
                .getAsJsonObject("metadata")
                .getAsJsonObject("annotations")
                .addProperty("quotient.io/env.NVIDIA_VISIBLE_DEVICES", "GPU-1234");
        JsonObject back = PlacementPatch.takeBack(ForeignWorkloadKind.BATCH_JOB, job, LABELS)
                .get(0);
        assertThat(back.getAsJsonObject("spec").getAsJsonObject("template").getAsJsonObject("metadata"))
                .as("the binding is removed, the author's annotation kept")
                .isEqualTo(JsonParser.parseString(
                        "{\"annotations\": {\"quotient.io/env.NVIDIA_VISIBLE_DEVICES\": null}}"));
    }

    @Test
    void aParallelBatchJobIsPinnedToItsGangsNodesOnePodPerNode() {
        JsonObject job = JsonParser.parseString("""
                {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "llm"},
                 "spec": {"suspend": true, "parallelism": 2, "template": {"spec": {"containers": [
                   {"name": "main", "image": "t", "resources": {"limits": {"nvidia.com/gpu": "4"}}}]}}}}""").getAsJsonObject();
        JsonObject patch =
                PlacementPatch.place(ForeignWorkloadKind.BATCH_JOB, job, LABELS, List.of("n1", "n2"), true, Map.of());
        assertThat(patch.getAsJsonObject("spec").get("suspend").getAsBoolean()).isFalse();
        String affinity = patch.getAsJsonObject("spec")
                .getAsJsonObject("template")
                .getAsJsonObject("spec")
                .getAsJsonObject("affinity")
                .toString();
        assertThat(affinity).contains("[\"n1\",\"n2\"]", "podAntiAffinity", "\"quotient.io/job\":\"llm\"");
    }
}
