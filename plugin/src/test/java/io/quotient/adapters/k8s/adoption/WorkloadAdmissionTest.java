package io.quotient.adapters.k8s.adoption;

import static io.quotient.adapters.k8s.adoption.AdmissionAnswers.assertUntouched;
import static io.quotient.adapters.k8s.adoption.AdmissionAnswers.message;
import static io.quotient.adapters.k8s.adoption.AdmissionAnswers.patch;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.quotient.adapters.k8s.TenantScope;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.request.GangAsk;
import io.quotient.core.request.GpuAsk;
import io.quotient.core.request.JobRequestInput;
import io.quotient.core.request.JobSpecValidator;
import io.quotient.core.tenancy.TeamNamespaces;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.WorkloadRef;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Foreign workloads that ask for GPUs are suspended and labelled; bad GPU annotations are refused; the rest pass. */
class WorkloadAdmissionTest {

    private final Map<JobId, JobRecord> records = new HashMap<>();
    private final WorkloadAdmission admission = new WorkloadAdmission(
            new TenantScope("quotient-system", () -> TeamNamespaces.of(Map.of("team-a", List.of("ml-a")), null)),
            job -> Optional.ofNullable(records.get(job)));

    private static final String GPU_JOB = """
            {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "ingest"},
             "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [
               {"name": "main", "image": "busybox", "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}}}}""";

    private static final String PYTORCH_JOB = """
            {"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "metadata": {"name": "llm", "labels": {"a": "b"}},
             "spec": {"pytorchReplicaSpecs": {
               "Master": {"replicas": 1, "template": {"spec": {"containers": [{"name": "pytorch", "image": "t",
                 "resources": {"limits": {"nvidia.com/gpu": 8}}}]}}},
               "Worker": {"replicas": 3, "template": {"spec": {"containers": [{"name": "pytorch", "image": "t",
                 "resources": {"limits": {"nvidia.com/gpu": 8}}}]}}}}}}""";

    private static final String TRAIN_JOB = """
            {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob", "metadata": {"name": "t"},
             "spec": {"runtimeRef": {"name": "torch-distributed"}, "suspend": false,
               "trainer": {"numNodes": 2, "resourcesPerNode": {"limits": {"nvidia.com/gpu": 2}}}}}""";

    @Test
    void aBatchJobWithAGpuIsSuspendedAndLabelled() {
        JsonObject response = mutate("batch", "v1", "Job", "ml-a", GPU_JOB);
        assertThat(response.get("allowed").getAsBoolean()).isTrue();
        assertThat(response.get("patchType").getAsString()).isEqualTo("JSONPatch");
        assertThat(patch(response)).isEqualTo(JsonParser.parseString("""
                [{"op": "add", "path": "/spec/suspend", "value": true},
                 {"op": "add", "path": "/metadata/labels", "value": {"quotient.io/adopted": "true"}}]"""));
    }

    @Test
    void aPyTorchJobGetsRunPolicyAndItsLabelsKept() {
        JsonObject response = mutate("kubeflow.org", "v1", "PyTorchJob", "ml-a", PYTORCH_JOB);
        assertThat(patch(response)).isEqualTo(JsonParser.parseString("""
                [{"op": "add", "path": "/spec/runPolicy", "value": {"suspend": true}},
                 {"op": "add", "path": "/metadata/labels/quotient.io~1adopted", "value": "true"}]"""));
        assertThat(ForeignWorkloadKind.PYTORCH_JOB.demand(
                        JsonParser.parseString(PYTORCH_JOB).getAsJsonObject()))
                .hasValueSatisfying(d -> assertThat(d.replicas()).isEqualTo(4));
    }

    @Test
    void aTrainJobIsSuspendedInPlace() {
        JsonObject response = mutate("trainer.kubeflow.org", "v1alpha1", "TrainJob", "ml-a", TRAIN_JOB);
        assertThat(patch(response).get(0)).isEqualTo(JsonParser.parseString("""
                {"op": "add", "path": "/spec/suspend", "value": true}"""));
        assertThat(ForeignWorkloadKind.TRAIN_JOB.demand(
                        JsonParser.parseString(TRAIN_JOB).getAsJsonObject()))
                .hasValueSatisfying(d -> assertThat(d.replicas()).isEqualTo(2));
    }

    @Test
    void workloadsWithoutGpusOtherNamespacesAndUpdatesPassUntouched() {
        String cpuOnly = GPU_JOB.replace("\"nvidia.com/gpu\": \"1\"", "\"cpu\": \"1\"");
        assertUntouched(mutate("batch", "v1", "Job", "ml-a", cpuOnly));
        assertUntouched(mutate("batch", "v1", "Job", "kube-system", GPU_JOB));
        assertUntouched(mutate("apps", "v1", "Deployment", "ml-a", GPU_JOB));
        assertUntouched(answer(GPU_JOB, "batch", "v1", "Job", "ml-a", "UPDATE", true));
    }

    @Test
    void aJobOfAnotherControllerPassesButACronJobsJobIsAdopted() {
        String ofJobSet = GPU_JOB.replace(
                "\"name\": \"ingest\"}",
                "\"name\": \"ingest\", \"ownerReferences\": [{"
                        + "\"apiVersion\": \"jobset.x-k8s.io/v1alpha2\", \"kind\": \"JobSet\", \"name\": \"t\", \"uid\": \"1\","
                        + " \"controller\": true}]}");
        assertUntouched(mutate("batch", "v1", "Job", "ml-a", ofJobSet));
        String ofCronJob =
                ofJobSet.replace("jobset.x-k8s.io/v1alpha2", "batch/v1").replace("JobSet", "CronJob");
        assertThat(mutate("batch", "v1", "Job", "ml-a", ofCronJob).has("patch")).isTrue();
    }

    @Test
    void invalidGpuAnnotationsAreRefusedByBothWebhooksWithTheField() {
        String bad = GPU_JOB.replace(
                        "\"spec\": {\"restartPolicy\"",
                        "\"metadata\": {\"annotations\": {"
                                + "\"gpu-fraction\": \"0.5\", \"gpu-fraction-limit\": \"0.3\"}}, \"spec\": {\"restartPolicy\"")
                .replace("\"nvidia.com/gpu\": \"1\"", "\"cpu\": \"1\"");
        for (boolean mutate : new boolean[] {true, false}) {
            JsonObject response = answer(bad, "batch", "v1", "Job", "ml-a", "CREATE", mutate);
            assertThat(response.get("allowed").getAsBoolean()).isFalse();
            assertThat(response.getAsJsonObject("status").get("message").getAsString())
                    .isEqualTo(
                            "spec.template.metadata.annotations[gpu-fraction-limit]: (0.3) must not be below gpu-fraction (0.5)");
        }
    }

    @Test
    void aGangOfUnequalReplicasIsRefused() {
        String unequal = PYTORCH_JOB.replaceFirst("\"nvidia.com/gpu\": 8", "\"nvidia.com/gpu\": 4");
        assertThat(message(mutate("kubeflow.org", "v1", "PyTorchJob", "ml-a", unequal)))
                .startsWith("spec.pytorchReplicaSpecs.Worker.replicas: these replicas ask for other GPUs than"
                        + " spec.pytorchReplicaSpecs.Master.replicas");
    }

    @Test
    void aParallelGpuJobIsAdoptedAsAGangOfItsParallelPods() {
        // issue 31 finding 10: it was refused ("Quotient places a batch Job that asks for GPUs one pod at a time")
        String parallel = GPU_JOB.replace("\"spec\": {\"template\"", "\"spec\": {\"parallelism\": 3, \"template\"");
        JsonObject response = mutate("batch", "v1", "Job", "ml-a", parallel);
        assertThat(response.get("allowed").getAsBoolean()).isTrue();
        assertThat(patch(response).get(0)).isEqualTo(JsonParser.parseString("""
                {"op": "add", "path": "/spec/suspend", "value": true}"""));
        assertThat(answer(parallel, "batch", "v1", "Job", "ml-a", "CREATE", false)
                        .get("allowed")
                        .getAsBoolean())
                .as("the validating webhook too")
                .isTrue();
        var demand = ForeignWorkloadKind.BATCH_JOB.demand(
                JsonParser.parseString(parallel).getAsJsonObject());
        assertThat(demand).hasValueSatisfying(d -> {
            assertThat(d.replicas()).isEqualTo(3);
            assertThat(d.request("team-a", "ingest").gang().replicas()).isEqualTo(3);
        });
    }

    @Test
    void aParallelJobsGangIsTheFewerOfItsParallelismAndCompletions() {
        String fewer = GPU_JOB.replace(
                "\"spec\": {\"template\"", "\"spec\": {\"parallelism\": 4, \"completions\": 2, \"template\"");
        assertThat(ForeignWorkloadKind.BATCH_JOB.demand(
                        JsonParser.parseString(fewer).getAsJsonObject()))
                .hasValueSatisfying(d -> assertThat(d.replicas()).isEqualTo(2));
        String more = GPU_JOB.replace(
                "\"spec\": {\"template\"", "\"spec\": {\"parallelism\": 2, \"completions\": 10, \"template\"");
        assertThat(ForeignWorkloadKind.BATCH_JOB.demand(
                        JsonParser.parseString(more).getAsJsonObject()))
                .as("pods run two at a time until ten succeed")
                .hasValueSatisfying(d -> assertThat(d.replicas()).isEqualTo(2));
        String shares = GPU_JOB.replace("\"spec\": {\"template\"", "\"spec\": {\"parallelism\": 2, \"template\"")
                .replace(
                        "\"spec\": {\"restartPolicy\"",
                        "\"metadata\": {\"annotations\": {"
                                + "\"gpu-fraction\": \"0.5\"}}, \"spec\": {\"restartPolicy\"")
                .replace("\"nvidia.com/gpu\": \"1\"", "\"cpu\": \"1\"");
        assertThat(message(mutate("batch", "v1", "Job", "ml-a", shares)))
                .startsWith("spec.parallelism: 2 replicas ask for a share of a GPU");
    }

    @Test
    void aSharedGpuJobGetsItsGpuEnvReadFromAnnotationsThatPlacementSets() {
        String share = GPU_JOB.replace(
                        "\"spec\": {\"restartPolicy\"",
                        "\"metadata\": {\"annotations\": {"
                                + "\"gpu-fraction\": \"0.5\"}}, \"spec\": {\"restartPolicy\"")
                .replace("\"nvidia.com/gpu\": \"1\"", "\"cpu\": \"1\"");
        JsonArray patch = patch(mutate("batch", "v1", "Job", "ml-a", share));
        assertThat(patch.get(0).toString()).contains("/spec/suspend");
        JsonObject env = patch.get(2).getAsJsonObject();
        assertThat(env.get("path").getAsString()).isEqualTo("/spec/template/spec/containers/0/env");
        assertThat(env.getAsJsonArray("value")).hasSize(4);
        assertThat(env.getAsJsonArray("value").get(0)).isEqualTo(JsonParser.parseString("""
                {"name": "NVIDIA_VISIBLE_DEVICES", "valueFrom": {"fieldRef": {"apiVersion": "v1",
                  "fieldPath": "metadata.annotations['quotient.io/env.NVIDIA_VISIBLE_DEVICES']"}}}"""));

        // the validating webhook sees the mutated Job: Quotient's own references pass
        String mutated = share.replace(
                "\"image\": \"busybox\",", "\"image\": \"busybox\", \"env\": " + env.getAsJsonArray("value") + ",");
        assertUntouched(answer(mutated, "batch", "v1", "Job", "ml-a", "CREATE", false));
        // a binding the author wrote himself would pick a GPU Quotient did not reserve
        String ownBinding = share.replace(
                "\"image\": \"busybox\",",
                "\"image\": \"busybox\", \"env\": [" + "{\"name\": \"NVIDIA_VISIBLE_DEVICES\", \"value\": \"all\"}],");
        assertThat(message(mutate("batch", "v1", "Job", "ml-a", ownBinding)))
                .startsWith(
                        "spec.template.spec.containers[0].env[NVIDIA_VISIBLE_DEVICES]: is set by Quotient for a share of a GPU");
    }

    @Test
    void aShareOnATrainJobIsRefused() {
        String share = TRAIN_JOB
                .replace(
                        "\"metadata\": {\"name\": \"t\"}",
                        "\"metadata\": {\"name\": \"t\"," + " \"annotations\": {\"gpu-fraction\": \"0.5\"}}")
                .replace(", \"resourcesPerNode\": {\"limits\":" + " {\"nvidia.com/gpu\": 2}}", "")
                .replace("\"numNodes\": 2", "\"numNodes\": 1");
        assertThat(message(mutate("trainer.kubeflow.org", "v1alpha1", "TrainJob", "ml-a", share)))
                .contains("shares of a GPU are not supported for a TrainJob");
    }

    @Test
    void theValidatingWebhookNeverPatches() {
        JsonObject response = answer(GPU_JOB, "batch", "v1", "Job", "ml-a", "CREATE", false);
        assertUntouched(response);
    }

    @Test
    void onlyQuotientUnsuspendsAnAdoptedWorkloadOnceItsJobIsPlaced() {
        String suspended = PYTORCH_JOB
                .replace(
                        "\"labels\": {\"a\": \"b\"}",
                        "\"uid\": \"u-7\", \"labels\":" + " {\"quotient.io/adopted\": \"true\"}")
                .replace(
                        "\"spec\": {\"pytorchReplicaSpecs\"",
                        "\"spec\": {\"runPolicy\": {\"suspend\": true}, \"pytorchReplicaSpecs\"");
        String running = suspended.replace("\"suspend\": true", "\"suspend\": false");
        assertThat(message(update(suspended, running)))
                .isEqualTo("spec.runPolicy.suspend: Quotient unsuspends this"
                        + " PyTorchJob when it places it (it has no job record yet); do not unsuspend it yourself. Delete it to"
                        + " give up the job");

        JobRequestInput input =
                JobRequestInput.of("team-a", "llm").with(GpuAsk.whole(8)).with(new GangAsk(4, null));
        JobSpec spec = new JobSpecValidator().validateRequest(input);
        JobSubmission governing =
                JobSubmission.governing(input, "ml-a", new WorkloadRef("kubeflow.org/v1", "PyTorchJob", "llm", "u-7"));
        records.put(
                spec.id(),
                new JobRecord(
                        governing, spec, JobStatus.pending("gang of 4 replicas: needs 4 nodes"), Instant.EPOCH, "1"));
        assertThat(message(update(suspended, running)))
                .contains("(job llm of team team-a is Pending: gang of 4" + " replicas: needs 4 nodes)");

        records.put(
                spec.id(),
                records.get(spec.id())
                        .withStatus(new JobStatus(JobPhase.PLACED, "n1", List.of(), null, null, Instant.EPOCH)));
        assertUntouched(update(suspended, running));
        assertUntouched(update(running, suspended)); // suspending is always allowed
        String notAdopted = running.replace("\"quotient.io/adopted\": \"true\"", "\"x\": \"y\"");
        records.clear();
        assertUntouched(update(suspended.replace("\"quotient.io/adopted\": \"true\"", "\"x\": \"y\""), notAdopted));
    }

    private JsonObject update(String old, String object) {
        String request = """
                {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
                 "request": {"uid": "u-1", "operation": "UPDATE", "namespace": "ml-a",
                  "kind": {"group": "kubeflow.org", "version": "v1", "kind": "PyTorchJob"},
                  "object": %s, "oldObject": %s}}
                """.formatted(object, old);
        return JsonParser.parseString(admission.validate(request))
                .getAsJsonObject()
                .getAsJsonObject("response");
    }

    private JsonObject mutate(String group, String version, String kind, String namespace, String object) {
        return answer(object, group, version, kind, namespace, "CREATE", true);
    }

    private JsonObject answer(
            String object,
            String group,
            String version,
            String kind,
            String namespace,
            String operation,
            boolean mutate) {
        String request = """
                {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
                 "request": {"uid": "u-1", "operation": "%s", "namespace": "%s",
                  "kind": {"group": "%s", "version": "%s", "kind": "%s"}, "object": %s}}
                """.formatted(operation, namespace, group, version, kind, object);
        String answer = mutate ? admission.mutate(request) : admission.validate(request);
        JsonObject response = JsonParser.parseString(answer).getAsJsonObject().getAsJsonObject("response");
        assertThat(response.get("uid").getAsString()).isEqualTo("u-1");
        return response;
    }
}
