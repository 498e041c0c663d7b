package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import io.quotient.it.kubeflow.FakeTrainingOperator;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kubeflow Trainer v2 through REST (issue 12): the {@code trainjob} template renders a 4 × 8-GPU gang as one TrainJob
 * that references the runtime the request names and carries the placement in Quotient's own {@code runtimePatches}
 * entry; the fake trainer builds the {@code node} pods from the runtime plus the patches, as the real Trainer does,
 * and the real kube-scheduler binds each to a distinct chosen node.
 */
@RealKubernetes
class TrainJobIT {

    /** The runtime the request names (the template's default, torch-distributed, is not installed here). */
    static final String RUNTIME = "torch-" + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void aTrainJobGangRunsOneNodePodPerChosenNodeThroughQuotientsRuntimePatch(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        ApiClient client = plane.apiClient();
        GangPlane.prepare(client, nodes, "trainjob", 5);
        Path teams =
                TeamsFile.write(dir.resolve("teams.yaml"), namespace.name(), new TeamsFile.Quota("team-a", 40, null));
        DynamicKubernetesApi runtimes =
                new DynamicKubernetesApi("trainer.kubeflow.org", "v1alpha1", "clustertrainingruntimes", client);
        createRuntime(runtimes);
        try (FakeTrainingOperator operator = FakeTrainingOperator.start(client);
                QuotientService service = QuotientService.inProcess(plane, namespace.name(), teams)) {
            QuotientApi api = service.api();
            Map<String, Object> body = Requests.with(
                    Requests.with(Requests.with(Requests.wholeGpus("llm", 8), "template", "trainjob"), "replicas", 4),
                    "env",
                    Map.of("EPOCHS", "3"));
            body = Requests.with(Requests.with(body, "image", "registry.example/llm:7"), "runtime", RUNTIME);

            QuotientApi.Answer placed = api.deploy("team-a", body);

            assertThat(placed.status()).as("%s", placed).isEqualTo(201);
            Set<String> chosen = placed.nodes();
            assertThat(chosen).hasSize(4);
            List<V1Pod> running = Await.until(
                    "the TrainJob's four node pods to run",
                    () -> pods(client, namespace),
                    pods -> pods.size() == 4
                            && pods.stream()
                                    .allMatch(
                                            p -> "Running".equals(p.getStatus().getPhase())));
            assertThat(running.stream().map(p -> p.getSpec().getNodeName()).collect(Collectors.toSet()))
                    .as("one node pod per chosen node, bound by the kube-scheduler")
                    .isEqualTo(chosen);
            assertThat(running).allSatisfy(pod -> {
                assertThat(pod.getMetadata().getLabels())
                        .containsEntry("quotient.io/team", "team-a")
                        .containsEntry("jobset.sigs.k8s.io/replicatedjob-name", "node");
                var container = pod.getSpec().getContainers().get(0);
                assertThat(container.getImage())
                        .as("the request's image, over the runtime's")
                        .isEqualTo("registry.example/llm:7");
                assertThat(container
                                .getResources()
                                .getLimits()
                                .get("nvidia.com/gpu")
                                .getNumber()
                                .intValue())
                        .isEqualTo(8);
                assertThat(container.getEnv()).extracting(V1EnvVar::getName).contains("EPOCHS");
            });

            JsonObject trainJob = trainJob(client, namespace, running.get(0));
            assertThat(trainJob.getAsJsonObject("spec")
                            .getAsJsonObject("runtimeRef")
                            .get("name")
                            .getAsString())
                    .isEqualTo(RUNTIME);
            assertThat(trainJob.getAsJsonObject("spec")
                            .getAsJsonObject("trainer")
                            .get("numNodes")
                            .getAsInt())
                    .isEqualTo(4);
            var patches = trainJob.getAsJsonObject("spec").getAsJsonArray("runtimePatches");
            assertThat(patches).hasSize(1);
            assertThat(patches.get(0).getAsJsonObject().get("manager").getAsString())
                    .isEqualTo("quotient.io/scheduler");
            assertThat(api.team("team-a").get("allocatedGpus").getAsDouble()).isEqualTo(32);

            assertThat(api.delete("team-a", "llm").status()).isBetween(200, 204);
            Await.until("the TrainJob's pods to go with it", () -> pods(client, namespace), List::isEmpty);
            assertThat(operator.lastFailure()).isNull();
        } finally {
            runtimes.delete(RUNTIME);
        }
    }

    /** A runtime whose node pods run one container; true when this call made it (false: a test before left it). */
    static boolean createRuntime(DynamicKubernetesApi runtimes) {
        KubernetesApiResponse<DynamicKubernetesObject> created =
                runtimes.create(new DynamicKubernetesObject(ForeignWorkloads.clusterTrainingRuntime(RUNTIME)));
        assertThat(created.isSuccess() || created.getHttpStatusCode() == 409)
                .as("%s", created.getStatus())
                .isTrue();
        return created.isSuccess();
    }

    private static JsonObject trainJob(ApiClient client, TestNamespace namespace, V1Pod pod) {
        String name = pod.getMetadata().getOwnerReferences().get(0).getName();
        return new DynamicKubernetesApi("trainer.kubeflow.org", "v1alpha1", "trainjobs", client)
                .get(namespace.name(), name)
                .getObject()
                .getRaw();
    }

    private static List<V1Pod> pods(ApiClient client, TestNamespace namespace) throws ApiException {
        return new CoreV1Api(client)
                .listNamespacedPod(namespace.name())
                .labelSelector("quotient.io/job=llm")
                .execute()
                .getItems();
    }
}
