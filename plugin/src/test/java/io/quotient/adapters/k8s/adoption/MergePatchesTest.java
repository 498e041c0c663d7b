package io.quotient.adapters.k8s.adoption;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.quotient.core.model.JobId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A placement the stored workload carries already is not written again (issue 31, finding 11): the reconciler
 * re-applies the placement of an adopted workload whose operator is absent, and each write went to the API server.
 */
class MergePatchesTest {

    private static final Map<String, String> LABELS = AdoptedWorkloadGateway.labels(new JobId("team-a", "llm"));

    private static JsonObject json(String text) {
        return JsonParser.parseString(text).getAsJsonObject();
    }

    /** RFC 7386 applied, as the API server applies a merge patch. */
    private static JsonObject merged(JsonObject target, JsonObject patch) {
        JsonObject result = target.deepCopy();
        for (Map.Entry<String, JsonElement> member : patch.entrySet()) {
            JsonElement value = member.getValue();
            if (value.isJsonNull()) {
                result.remove(member.getKey());
            } else if (value.isJsonObject()) {
                JsonElement now = result.get(member.getKey());
                result.add(
                        member.getKey(),
                        merged(
                                now != null && now.isJsonObject() ? now.getAsJsonObject() : new JsonObject(),
                                value.getAsJsonObject()));
            } else {
                result.add(member.getKey(), value.deepCopy());
            }
        }
        return result;
    }

    @Test
    void aPatchChangesWhatItSetsReplacesOrRemoves() {
        JsonObject stored = json(
                "{\"spec\": {\"suspend\": false, \"replicas\": 2, \"list\": [1, 2]," + " \"inner\": {\"a\": \"x\"}}}");
        assertThat(MergePatches.changes(stored, json("{\"spec\": {\"suspend\": false}}")))
                .isFalse();
        assertThat(MergePatches.changes(stored, json("{\"spec\": {\"replicas\": 2, \"inner\": {\"a\": \"x\"}}}")))
                .isFalse();
        assertThat(MergePatches.changes(stored, json("{\"spec\": {\"gone\": null}}")))
                .as("removes nothing")
                .isFalse();
        assertThat(MergePatches.changes(stored, json("{\"spec\": {\"suspend\": true}}")))
                .isTrue();
        assertThat(MergePatches.changes(stored, json("{\"spec\": {\"list\": [1]}}")))
                .as("arrays replace")
                .isTrue();
        assertThat(MergePatches.changes(stored, json("{\"spec\": {\"inner\": null}}")))
                .isTrue();
        assertThat(MergePatches.changes(stored, json("{\"spec\": {\"inner\": {\"b\": \"y\"}}}")))
                .isTrue();
        assertThat(MergePatches.changes(stored, json("{\"spec\": {\"replicas\": {\"x\": 1}}}")))
                .isTrue();
        assertThat(MergePatches.changes(stored, json("{\"metadata\": {}}")))
                .as("an empty object is added")
                .isTrue();
    }

    @Test
    void placingAPyTorchJobThatCarriesItsPlacementAlreadyChangesNothing() {
        String template = "{\"spec\": {\"containers\": [{\"name\": \"pytorch\", \"image\": \"t\"}]}}";
        JsonObject workload = json("{\"apiVersion\": \"kubeflow.org/v1\", \"kind\": \"PyTorchJob\","
                + " \"metadata\": {\"name\": \"llm\"}, \"spec\": {\"runPolicy\": {\"suspend\": true},"
                + " \"pytorchReplicaSpecs\": {\"Master\": {\"replicas\": 1, \"template\": " + template + "},"
                + " \"Worker\": {\"replicas\": 1, \"template\": " + template + "}}}}");
        JsonObject patch = PlacementPatch.place(
                ForeignWorkloadKind.PYTORCH_JOB, workload, LABELS, List.of("n1", "n2"), true, Map.of());
        assertThat(MergePatches.changes(workload, patch)).isTrue();
        JsonObject placed = merged(workload, patch);

        assertThat(MergePatches.changes(
                        placed,
                        PlacementPatch.place(
                                ForeignWorkloadKind.PYTORCH_JOB, placed, LABELS, List.of("n1", "n2"), true, Map.of())))
                .isFalse();
        assertThat(MergePatches.changes(
                        placed,
                        PlacementPatch.place(
                                ForeignWorkloadKind.PYTORCH_JOB, placed, LABELS, List.of("n1", "n3"), true, Map.of())))
                .as("other nodes")
                .isTrue();
    }

    @Test
    void placingATrainJobThatCarriesItsPlacementAlreadyChangesNothing() {
        JsonObject trainJob = json("""
                {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob", "metadata": {"name": "tj"},
                 "spec": {"suspend": true, "runtimeRef": {"name": "torch-distributed"},
                  "trainer": {"numNodes": 2, "resourcesPerNode": {"limits": {"nvidia.com/gpu": 8}}}}}""");
        JsonObject placed = merged(
                trainJob,
                PlacementPatch.place(
                        ForeignWorkloadKind.TRAIN_JOB, trainJob, LABELS, List.of("n1", "n2"), true, Map.of()));

        assertThat(MergePatches.changes(
                        placed,
                        PlacementPatch.place(
                                ForeignWorkloadKind.TRAIN_JOB, placed, LABELS, List.of("n1", "n2"), true, Map.of())))
                .isFalse();
    }
}
