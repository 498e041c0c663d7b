package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.BatchV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNode;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import io.quotient.it.kubeflow.FakeTrainingOperator;
import io.quotient.it.kubeflow.KubeflowCrds;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workloads created with kubectl (issue 12): the shipped workload webhooks, served by the service on its admission
 * port, suspend and label a PyTorchJob, TrainJob or batch Job that asks for GPUs in an opted-in team namespace,
 * refuse invalid GPU annotations with the field, and leave workloads without GPUs untouched; with the service down,
 * kube-system and namespaces that did not opt in are never blocked.
 */
@RealKubernetes
class AdoptionIT {

    private static final String ADOPTED = "quotient.io/adopted";

    @Test
    void gpuWorkloadsCreatedWithKubectlAreSuspendedAndTheRestIsUntouched(
            ControlPlane plane, TestNamespace service, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        nodes.create(FakeGpuNodeSpec.of("adopt", 8, 81920, "NVIDIA-A100-SXM4-80GB"));
        ApiClient user = plane.apiClient();
        QuotientManifests.installCrd(user);
        KubeflowCrds.install(user);
        WebhookTls tls = WebhookTls.make(dir);
        BatchV1Api batch = new BatchV1Api(user);
        DynamicKubernetesApi pytorchJobs = new DynamicKubernetesApi("kubeflow.org", "v1", "pytorchjobs", user);
        DynamicKubernetesApi trainJobs =
                new DynamicKubernetesApi("trainer.kubeflow.org", "v1alpha1", "trainjobs", user);
        try (TestNamespace team = TestNamespace.create(user, plane.serverMinorVersion(), "team-k");
                TestNamespace other = TestNamespace.create(user, plane.serverMinorVersion(), "other")) {
            WorkloadWebhooks.optIn(user, team.name());
            Path teams = TeamsFile.writeText(
                    dir.resolve("teams.yaml"),
                    "teams:\n  - name: team-k\n" + "    guaranteedGpus: 32\n    namespaces: [" + team.name() + "]\n");
            try (WorkloadWebhooks webhooks = WorkloadWebhooks.register(user, tls.port(), tls.caBundle())) {
                try (QuotientService quotient = QuotientService.inProcess(plane, service.name(), teams, tls.args())) {
                    // the API server loads a new webhook configuration a moment after it is created
                    JsonObject llm = Await.until(
                            "the webhook to suspend a 4 x 8-GPU PyTorchJob",
                            () -> recreate(pytorchJobs, ForeignWorkloads.pyTorchJob(team.name(), "llm", 4, 8)),
                            stored -> adopted(stored));
                    assertThat(llm.getAsJsonObject("spec")
                                    .getAsJsonObject("runPolicy")
                                    .get("suspend")
                                    .getAsBoolean())
                            .isTrue();

                    // a user may not start it past Quotient: it waits for 4 nodes, the plane has 1
                    KubernetesApiResponse<DynamicKubernetesObject> unsuspended = pytorchJobs.patch(
                            team.name(),
                            "llm",
                            V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
                            new V1Patch(unsuspend().toString()));
                    assertThat(unsuspended.getHttpStatusCode()).isEqualTo(422);
                    assertThat(unsuspended.getStatus().getMessage())
                            .contains("spec.runPolicy.suspend: Quotient"
                                    + " unsuspends this PyTorchJob when it places it");

                    JsonObject trainJob = created(trainJobs.create(new DynamicKubernetesObject(
                            ForeignWorkloads.trainJob(team.name(), "tj", "torch-distributed", 2, 8))));
                    assertThat(adopted(trainJob)).isTrue();
                    assertThat(trainJob.getAsJsonObject("spec").get("suspend").getAsBoolean())
                            .isTrue();

                    V1Job gpuJob = batch.createNamespacedJob(
                                    team.name(), ForeignWorkloads.batchJob(team.name(), "ingest", 1, null))
                            .execute();
                    assertThat(gpuJob.getMetadata().getLabels()).containsEntry(ADOPTED, "true");
                    if (plane.serverMinorVersion() >= 21) { // 1.20 has no Job suspend: the API server drops the field
                        assertThat(gpuJob.getSpec().getSuspend()).isTrue();
                    }

                    V1Job cpuJob = batch.createNamespacedJob(
                                    team.name(), ForeignWorkloads.batchJob(team.name(), "cpu-only", 0, null))
                            .execute();
                    assertThat(cpuJob.getMetadata().getLabels()).doesNotContainKey(ADOPTED);
                    assertThat(cpuJob.getSpec().getSuspend()).isNotEqualTo(Boolean.TRUE);

                    ApiException refused = catchThrowableOfType(
                            () -> batch.createNamespacedJob(
                                            team.name(),
                                            ForeignWorkloads.batchJob(
                                                    team.name(),
                                                    "bad",
                                                    0,
                                                    Map.of("gpu-fraction", "0.5", "gpu-fraction-limit", "0.3")))
                                    .execute(),
                            ApiException.class);
                    assertThat(refused.getCode()).isEqualTo(422);
                    assertThat(refused.getResponseBody())
                            .contains(
                                    "denied the request",
                                    "spec.template.metadata.annotations[gpu-fraction-limit]: (0.3) must not be below"
                                            + " gpu-fraction (0.5)");

                    V1Job elsewhere = batch.createNamespacedJob(
                                    other.name(), ForeignWorkloads.batchJob(other.name(), "elsewhere", 1, null))
                            .execute();
                    assertThat(elsewhere.getMetadata().getLabels()).doesNotContainKey(ADOPTED);
                }
                // the service is down; the webhooks stay registered with failurePolicy Fail
                V1Job system = batch.createNamespacedJob(
                                "kube-system",
                                ForeignWorkloads.batchJob("kube-system", "untouched-" + team.name(), 1, null))
                        .execute();
                try {
                    assertThat(system.getMetadata().getLabels()).doesNotContainKey(ADOPTED);
                    assertThat(batch.createNamespacedJob(
                                            other.name(),
                                            ForeignWorkloads.batchJob(other.name(), "while-down", 1, null))
                                    .execute()
                                    .getMetadata()
                                    .getLabels())
                            .doesNotContainKey(ADOPTED);
                    ApiException blocked = catchThrowableOfType(
                            () -> batch.createNamespacedJob(
                                            team.name(),
                                            ForeignWorkloads.batchJob(team.name(), "gpu-while-down", 1, null))
                                    .execute(),
                            ApiException.class);
                    assertThat(blocked)
                            .as("a GPU workload in an opted-in namespace is never admitted unsuspended")
                            .isNotNull();
                    assertThat(blocked.getResponseBody()).contains("workloads.quotient.io");
                } finally {
                    batch.deleteNamespacedJob(system.getMetadata().getName(), "kube-system")
                            .propagationPolicy("Background")
                            .execute();
                }
            }
        }
    }

    @Test
    void adoptedPyTorchJobAndTrainJobRunAsGangsAndArePreemptedBySuspension(
            ControlPlane plane, TestNamespace service, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        for (int i = 0; i < 4; i++) {
            nodes.create(FakeGpuNodeSpec.of("adopt-gang", 8, 81920, "NVIDIA-A100-SXM4-80GB"));
        }
        ApiClient user = plane.apiClient();
        QuotientManifests.installCrd(user);
        WebhookTls tls = WebhookTls.make(dir);
        DynamicKubernetesApi pytorchJobs = new DynamicKubernetesApi("kubeflow.org", "v1", "pytorchjobs", user);
        DynamicKubernetesApi gpuJobs = new DynamicKubernetesApi("quotient.io", "v1alpha1", "gpujobs", user);
        DynamicKubernetesApi trainJobs =
                new DynamicKubernetesApi("trainer.kubeflow.org", "v1alpha1", "trainjobs", user);
        try (TestNamespace team = TestNamespace.create(user, plane.serverMinorVersion(), "team-g");
                FakeTrainingOperator operator = FakeTrainingOperator.start(user)) {
            WorkloadWebhooks.optIn(user, team.name());
            // team-g borrows (no guarantee); team-b's guarantee of 32 takes the GPUs back
            Path teams = TeamsFile.writeText(
                    dir.resolve("teams.yaml"),
                    "teams:\n  - name: team-g\n"
                            + "    guaranteedGpus: 0\n    namespaces: [" + team.name() + "]\n  - name: team-b\n"
                            + "    guaranteedGpus: 32\n    namespaces: [" + service.name() + "]\n");
            try (WorkloadWebhooks webhooks = WorkloadWebhooks.register(user, tls.port(), tls.caBundle());
                    QuotientService quotient = QuotientService.inProcess(plane, service.name(), teams, tls.args())) {
                JsonObject llm = Await.until(
                        "the webhook to suspend a 4 x 8-GPU PyTorchJob",
                        () -> recreate(pytorchJobs, ForeignWorkloads.pyTorchJob(team.name(), "llm", 4, 8)),
                        AdoptionIT::adopted);
                String uid = llm.getAsJsonObject("metadata").get("uid").getAsString();

                QuotientApi api = quotient.api();
                QuotientApi.Answer placed = Await.until(
                        "the adopted job to be placed",
                        () -> api.job("team-g", "llm"),
                        job -> job.status() == 200
                                && ("Placed".equals(job.text("phase")) || "Running".equals(job.text("phase"))));
                Set<String> chosen = chosenNodes(placed);
                assertThat(chosen).hasSize(4);
                JsonObject record = gpuJobs.get(team.name(), "llm").getObject().getRaw();
                assertThat(record.getAsJsonObject("metadata")
                                .getAsJsonArray("ownerReferences")
                                .get(0)
                                .getAsJsonObject()
                                .get("uid")
                                .getAsString())
                        .as("the record is owned by the workload")
                        .isEqualTo(uid);
                assertThat(record.getAsJsonObject("spec")
                                .getAsJsonObject("workloadRef")
                                .get("kind")
                                .getAsString())
                        .isEqualTo("PyTorchJob");

                List<V1Pod> running = Await.until(
                        "the four replicas to run",
                        () -> pods(user, team.name(), "llm"),
                        pods -> pods.size() == 4
                                && pods.stream()
                                        .allMatch(p ->
                                                "Running".equals(p.getStatus().getPhase())));
                assertThat(running.stream().map(p -> p.getSpec().getNodeName()).collect(Collectors.toSet()))
                        .as("one replica per chosen node, bound by the kube-scheduler")
                        .isEqualTo(chosen);
                assertThat(suspended(pytorchJobs, team.name())).isFalse();

                QuotientApi.Answer claim = api.deploy("team-b", Requests.wholeGpus("claim", 8));
                assertThat(claim.status()).as("%s", claim).isEqualTo(201);
                Await.until(
                        "the preempted PyTorchJob to be suspended again",
                        () -> suspended(pytorchJobs, team.name()),
                        Boolean::booleanValue);
                Await.until(
                        "every replica of the preempted gang to go",
                        () -> pods(user, team.name(), "llm"),
                        List::isEmpty);
                JsonObject again =
                        pytorchJobs.get(team.name(), "llm").getObject().getRaw();
                assertThat(again.getAsJsonObject("spec")
                                .getAsJsonObject("pytorchReplicaSpecs")
                                .getAsJsonObject("Worker")
                                .getAsJsonObject("template")
                                .getAsJsonObject("spec")
                                .has("affinity"))
                        .as("the placement is taken back")
                        .isFalse();
                Await.until(
                        "the record to be re-queued with its reason",
                        () -> api.job("team-g", "llm").text("reason"),
                        reason -> reason != null && reason.contains("needs 4 nodes with 8 free"));
                assertThat(api.job("team-g", "llm").text("phase")).isEqualTo("Pending");

                assertThat(pytorchJobs.delete(team.name(), "llm").isSuccess()).isTrue();
                Await.until(
                        "the garbage collector to delete the record with its workload",
                        () -> gpuJobs.get(team.name(), "llm").getHttpStatusCode(),
                        status -> status == 404);
                Await.until("the job to be gone", () -> api.job("team-g", "llm").status(), status -> status == 404);

                // a TrainJob: placed through Quotient's runtimePatches entry, its node pods one per chosen node
                DynamicKubernetesApi runtimes =
                        new DynamicKubernetesApi("trainer.kubeflow.org", "v1alpha1", "clustertrainingruntimes", user);
                boolean createdRuntime = TrainJobIT.createRuntime(runtimes);
                try {
                    assertThat(adopted(created(trainJobs.create(new DynamicKubernetesObject(
                                    ForeignWorkloads.trainJob(team.name(), "tj", TrainJobIT.RUNTIME, 2, 8))))))
                            .isTrue();
                    QuotientApi.Answer tj = Await.until(
                            "the adopted TrainJob to be placed",
                            () -> api.job("team-g", "tj"),
                            job -> job.status() == 200
                                    && ("Placed".equals(job.text("phase")) || "Running".equals(job.text("phase"))));
                    Set<String> tjNodes = chosenNodes(tj);
                    assertThat(tjNodes).hasSize(2);
                    List<V1Pod> nodePods = Await.until(
                            "the TrainJob's two node pods to run",
                            () -> pods(user, team.name(), "tj"),
                            pods -> pods.size() == 2
                                    && pods.stream()
                                            .allMatch(p -> "Running"
                                                    .equals(p.getStatus().getPhase())));
                    assertThat(nodePods.stream()
                                    .map(p -> p.getSpec().getNodeName())
                                    .collect(Collectors.toSet()))
                            .isEqualTo(tjNodes);
                    assertThat(trainJobs
                                    .get(team.name(), "tj")
                                    .getObject()
                                    .getRaw()
                                    .getAsJsonObject("spec")
                                    .getAsJsonArray("runtimePatches")
                                    .get(0)
                                    .getAsJsonObject()
                                    .get("manager")
                                    .getAsString())
                            .isEqualTo("quotient.io/scheduler");
                } finally {
                    trainJobs.delete(team.name(), "tj");
                    if (createdRuntime) {
                        runtimes.delete(TrainJobIT.RUNTIME);
                    }
                }
                assertThat(operator.lastFailure()).isNull();
            }
        }
    }

    /**
     * A preemption deletes the workload's pods itself, beside suspending it: a controller may miss a suspension that
     * the next placement undoes a moment later (found by the soak: a TrainJob's old pod kept running on a node the
     * job no longer held). Here the training operator is stopped before the preemption, so only Quotient can delete
     * the pods.
     */
    @Test
    void aPreemptedWorkloadsPodsGoEvenWhenItsControllerMissesTheSuspension(
            ControlPlane plane, TestNamespace service, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        for (int i = 0; i < 2; i++) {
            nodes.create(FakeGpuNodeSpec.of("adopt-miss", 8, 81920, "NVIDIA-A100-SXM4-80GB"));
        }
        ApiClient user = plane.apiClient();
        QuotientManifests.installCrd(user);
        WebhookTls tls = WebhookTls.make(dir);
        DynamicKubernetesApi pytorchJobs = new DynamicKubernetesApi("kubeflow.org", "v1", "pytorchjobs", user);
        try (TestNamespace team = TestNamespace.create(user, plane.serverMinorVersion(), "team-m");
                FakeTrainingOperator operator = FakeTrainingOperator.start(user)) {
            WorkloadWebhooks.optIn(user, team.name());
            Path teams = TeamsFile.writeText(
                    dir.resolve("teams.yaml"),
                    "teams:\n  - name: team-m\n"
                            + "    guaranteedGpus: 0\n    namespaces: [" + team.name() + "]\n  - name: team-b\n"
                            + "    guaranteedGpus: 8\n    namespaces: [" + service.name() + "]\n");
            try (WorkloadWebhooks webhooks = WorkloadWebhooks.register(user, tls.port(), tls.caBundle());
                    QuotientService quotient = QuotientService.inProcess(plane, service.name(), teams, tls.args())) {
                Await.until(
                        "the webhook to suspend a 2 x 8-GPU PyTorchJob",
                        () -> recreate(pytorchJobs, ForeignWorkloads.pyTorchJob(team.name(), "llm", 2, 8)),
                        AdoptionIT::adopted);
                Await.until(
                        "the two replicas to run",
                        () -> pods(user, team.name(), "llm"),
                        pods -> pods.size() == 2
                                && pods.stream()
                                        .allMatch(p ->
                                                "Running".equals(p.getStatus().getPhase())));
                operator.close(); // the controller sees nothing from now on

                QuotientApi.Answer claim = quotient.api().deploy("team-b", Requests.wholeGpus("claim", 8));
                assertThat(claim.status()).as("%s", claim).isEqualTo(201);
                Await.until(
                        "the preempted PyTorchJob to be suspended again",
                        () -> suspended(pytorchJobs, team.name()),
                        Boolean::booleanValue);
                Await.until(
                        "Quotient to delete the preempted gang's pods",
                        () -> pods(user, team.name(), "llm"),
                        pods -> pods.stream().allMatch(p -> p.getMetadata().getDeletionTimestamp() != null));
            }
        }
    }

    @Test
    void aPyTorchJobAskingForHalfAGpuIsBoundToItsReservedGpuThroughItsPodTemplate(
            ControlPlane plane, TestNamespace service, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        FakeGpuNode node = nodes.create(FakeGpuNodeSpec.of("adopt-share", 2, 81920, "NVIDIA-A100-SXM4-80GB"));
        ApiClient user = plane.apiClient();
        QuotientManifests.installCrd(user);
        KubeflowCrds.install(user);
        WebhookTls tls = WebhookTls.make(dir);
        DynamicKubernetesApi pytorchJobs = new DynamicKubernetesApi("kubeflow.org", "v1", "pytorchjobs", user);
        try (TestNamespace team = TestNamespace.create(user, plane.serverMinorVersion(), "team-s");
                FakeTrainingOperator operator = FakeTrainingOperator.start(user)) {
            WorkloadWebhooks.optIn(user, team.name());
            Path teams = TeamsFile.writeText(
                    dir.resolve("teams.yaml"),
                    "teams:\n  - name: team-s\n" + "    guaranteedGpus: 2\n    namespaces: [" + team.name() + "]\n");
            try (WorkloadWebhooks webhooks = WorkloadWebhooks.register(user, tls.port(), tls.caBundle());
                    QuotientService quotient = QuotientService.inProcess(plane, service.name(), teams, tls.args())) {
                JsonObject half = Await.until(
                        "the webhook to suspend a PyTorchJob asking for half a GPU",
                        () -> recreate(pytorchJobs, ForeignWorkloads.sharedPyTorchJob(team.name(), "half", "0.5")),
                        AdoptionIT::adopted);
                JsonObject container = half.getAsJsonObject("spec")
                        .getAsJsonObject("pytorchReplicaSpecs")
                        .getAsJsonObject("Master")
                        .getAsJsonObject("template")
                        .getAsJsonObject("spec")
                        .getAsJsonArray("containers")
                        .get(0)
                        .getAsJsonObject();
                assertThat(container.getAsJsonArray("env").toString())
                        .as("the GPU env, read from annotations")
                        .contains("metadata.annotations['quotient.io/env.NVIDIA_VISIBLE_DEVICES']");

                QuotientApi api = quotient.api();
                QuotientApi.Answer placed = Await.until(
                        "the share to be placed on a reserved GPU",
                        () -> api.job("team-s", "half"),
                        job -> job.status() == 200
                                && job.object().getAsJsonArray("gpus").size() == 1
                                && !job.object()
                                        .getAsJsonArray("gpus")
                                        .get(0)
                                        .getAsJsonObject()
                                        .get("uuid")
                                        .isJsonNull());
                String uuid = placed.object()
                        .getAsJsonArray("gpus")
                        .get(0)
                        .getAsJsonObject()
                        .get("uuid")
                        .getAsString();
                assertThat(node.gpuUuids()).contains(uuid);
                assertThat(new ClusterFacts(user, service.name()).reservationPods())
                        .singleElement()
                        .satisfies(pod -> assertThat(pod.getMetadata().getAnnotations())
                                .containsEntry("quotient.io/gpu-uuid", uuid));

                V1Pod pod = Await.until(
                                "the Master pod to run",
                                () -> pods(user, team.name(), "half"),
                                pods -> pods.size() == 1
                                        && "Running"
                                                .equals(pods.get(0).getStatus().getPhase()))
                        .get(0);
                assertThat(pod.getSpec().getNodeName()).isEqualTo(node.name());
                assertThat(pod.getMetadata().getAnnotations())
                        .containsEntry("quotient.io/env.NVIDIA_VISIBLE_DEVICES", uuid)
                        .containsEntry("quotient.io/env.GPU_MEMORY_REQUEST", Long.toString(81920L * 1024 * 1024 / 2))
                        .containsEntry("gpu-fraction", "0.5");
                var resources = pod.getSpec().getContainers().get(0).getResources();
                assertThat(resources == null
                                || resources.getLimits() == null
                                || !resources.getLimits().containsKey("nvidia.com/gpu"))
                        .as("no nvidia.com/gpu (%s): the reservation pod holds the GPU", resources)
                        .isTrue();
                assertThat(operator.lastFailure()).isNull();
            }
        }
    }

    private static boolean suspended(DynamicKubernetesApi pytorchJobs, String namespace) {
        JsonObject job = pytorchJobs.get(namespace, "llm").getObject().getRaw();
        JsonObject runPolicy = job.getAsJsonObject("spec").getAsJsonObject("runPolicy");
        return runPolicy != null
                && runPolicy.has("suspend")
                && runPolicy.get("suspend").getAsBoolean();
    }

    private static Set<String> chosenNodes(QuotientApi.Answer placed) {
        Set<String> chosen = new HashSet<>();
        chosen.add(placed.text("node"));
        var replicas = placed.object().getAsJsonArray("replicas");
        if (replicas != null) {
            replicas.forEach(r -> chosen.add(r.getAsJsonObject().get("node").getAsString()));
        }
        return chosen;
    }

    private static List<V1Pod> pods(ApiClient client, String namespace, String job) throws ApiException {
        return new CoreV1Api(client)
                .listNamespacedPod(namespace)
                .labelSelector("quotient.io/job=" + job)
                .execute()
                .getItems();
    }

    private static JsonObject unsuspend() {
        JsonObject runPolicy = new JsonObject();
        runPolicy.addProperty("suspend", false);
        JsonObject spec = new JsonObject();
        spec.add("runPolicy", runPolicy);
        JsonObject patch = new JsonObject();
        patch.add("spec", spec);
        return patch;
    }

    /** Creates the workload, first deleting one the webhook did not adopt yet (its configuration was still loading). */
    static JsonObject recreate(DynamicKubernetesApi api, JsonObject workload) {
        String namespace = workload.getAsJsonObject("metadata").get("namespace").getAsString();
        String name = workload.getAsJsonObject("metadata").get("name").getAsString();
        KubernetesApiResponse<DynamicKubernetesObject> existing = api.get(namespace, name);
        if (existing.isSuccess()) {
            if (adopted(existing.getObject().getRaw())) {
                return existing.getObject().getRaw();
            }
            api.delete(namespace, name);
            return new JsonObject();
        }
        return created(api.create(new DynamicKubernetesObject(workload)));
    }

    private static JsonObject created(KubernetesApiResponse<DynamicKubernetesObject> response) {
        assertThat(response.isSuccess())
                .as(
                        "HTTP %s %s",
                        response.getHttpStatusCode(),
                        response.getStatus() == null ? "" : response.getStatus().getMessage())
                .isTrue();
        return response.getObject().getRaw();
    }

    static boolean adopted(JsonObject object) {
        JsonObject metadata = object.getAsJsonObject("metadata");
        JsonObject labels = metadata == null ? null : metadata.getAsJsonObject("labels");
        JsonElement value = labels == null ? null : labels.get(ADOPTED);
        return value != null && "true".equals(value.getAsString());
    }
}
