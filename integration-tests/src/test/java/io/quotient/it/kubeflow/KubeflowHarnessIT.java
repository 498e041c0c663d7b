package io.quotient.it.kubeflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.FakeGpuNode;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Kubeflow side of the test plane: the project's PyTorchJob/TrainJob/Notebook CRDs installed and pruning as the
 * real ones do, and the fake training operator making (and, on suspend, removing) the replicas' pods that the real
 * kube-scheduler binds, and never again once they have all finished.
 */
@RealKubernetes
class KubeflowHarnessIT {

    private static FakeTrainingOperator operator;

    @BeforeAll
    static void startOperator(ApiClient client) {
        operator = FakeTrainingOperator.start(client);
    }

    @AfterAll
    static void stopOperator() {
        operator.close();
    }

    @Test
    void crdsKeepWhatUpstreamKeepsAndPruneTheRest(ApiClient client, TestNamespace namespace) {
        DynamicKubernetesApi trainJobs =
                new DynamicKubernetesApi("trainer.kubeflow.org", "v1alpha1", "trainjobs", client);
        JsonObject trainJob = json("""
        {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob",
         "metadata": {"name": "pruned", "namespace": "%s"},
         "spec": {"runtimeRef": {"name": "torch-distributed"}, "suspend": true, "unknownField": 1,
           "trainer": {"numNodes": 2, "image": "", "resourcesPerNode": {"limits": {"nvidia.com/gpu": 8}}},
           "runtimePatches": [{"manager": "quotient.io/placement", "trainingRuntimeSpec": {"template": {"spec": {
             "replicatedJobs": [{"name": "node", "template": {"spec": {"template": {"spec": {
               "nodeSelector": {"pool": "a100"}, "nodeName": "n1", "schedulerName": "other",
               "containers": [{"name": "node", "env": [{"name": "A", "value": "1"}],
                               "resources": {"limits": {"nvidia.com/gpu": 1}}}]}}}}}]}}}}]}}
        """.formatted(namespace.name()));

        KubernetesApiResponse<DynamicKubernetesObject> created =
                trainJobs.create(new DynamicKubernetesObject(trainJob));

        assertThat(created.isSuccess())
                .as("create answered %s", created.getStatus())
                .isTrue();
        JsonObject stored = created.getObject().getRaw();
        JsonElement podSpec = TrainingPods.at(stored, "spec", "runtimePatches");
        JsonObject patchedPod = podSpec.getAsJsonArray().get(0).getAsJsonObject();
        JsonObject spec = TrainingPods.at(patchedPod, "trainingRuntimeSpec", "template", "spec")
                .getAsJsonObject()
                .getAsJsonArray("replicatedJobs")
                .get(0)
                .getAsJsonObject()
                .getAsJsonObject("template")
                .getAsJsonObject("spec")
                .getAsJsonObject("template")
                .getAsJsonObject("spec");
        assertThat(spec.keySet()).containsExactlyInAnyOrder("nodeSelector", "containers");
        assertThat(spec.getAsJsonArray("containers").get(0).getAsJsonObject().keySet())
                .containsExactlyInAnyOrder("name", "env");
        assertThat(stored.getAsJsonObject("spec").has("unknownField")).isFalse();
        // an empty string is a value, not null (kubernetes#99804 patched in the plane's build)
        assertThat(TrainingPods.at(stored, "spec", "trainer", "image").getAsString())
                .isEmpty();
        assertThat(TrainingPods.at(stored, "spec", "runtimeRef", "kind").getAsString())
                .isEqualTo("ClusterTrainingRuntime");
    }

    @Test
    void pyTorchJobHasItsReplicasOnlyWhileNotSuspended(ApiClient client, TestNamespace namespace, FakeGpuNodes nodes)
            throws Exception {
        nodes.create(FakeGpuNodeSpec.of("ptj", 8, 81_920, "NVIDIA-A100-SXM4-80GB"));
        nodes.create(FakeGpuNodeSpec.of("ptj", 8, 81_920, "NVIDIA-A100-SXM4-80GB"));
        DynamicKubernetesApi pytorchJobs = new DynamicKubernetesApi("kubeflow.org", "v1", "pytorchjobs", client);
        String replica = """
        {"replicas": %d, "restartPolicy": "OnFailure", "template": {"spec": {"containers": [{"name": "pytorch",
          "image": "registry.example/train:1", "resources": {"limits": {"nvidia.com/gpu": 8}}}]}}}""";
        JsonObject job = json("""
        {"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "metadata": {"name": "gang", "namespace": "%s"},
         "spec": {"runPolicy": {"suspend": true},
                  "pytorchReplicaSpecs": {"Master": %s, "Worker": %s}}}
        """.formatted(namespace.name(), replica.formatted(1), replica.formatted(1)));
        assertThat(pytorchJobs.create(new DynamicKubernetesObject(job)).isSuccess())
                .isTrue();

        Thread.sleep(1_500); // five passes of the operator
        assertThat(pods(client, namespace)).as("a suspended job has no pods").isEmpty();

        pytorchJobs.patch(
                namespace.name(),
                "gang",
                V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
                new V1Patch("{\"spec\":{\"runPolicy\":{\"suspend\":false}}}"));
        List<V1Pod> running = Await.until(
                "master and worker to run",
                () -> pods(client, namespace),
                pods -> pods.size() == 2
                        && pods.stream()
                                .allMatch(p -> "Running".equals(p.getStatus().getPhase())));
        assertThat(running)
                .extracting(p -> p.getMetadata().getName())
                .containsExactlyInAnyOrder("gang-master-0", "gang-worker-0");
        assertThat(running.stream().map(p -> p.getSpec().getNodeName()).collect(Collectors.toSet()))
                .as("two 8-GPU replicas on two 8-GPU nodes")
                .hasSize(2);

        pytorchJobs.patch(
                namespace.name(),
                "gang",
                V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
                new V1Patch("{\"spec\":{\"runPolicy\":{\"suspend\":true}}}"));
        Await.until("suspending to remove the pods", () -> pods(client, namespace), List::isEmpty);
        assertThat(operator.lastFailure()).isNull();
    }

    @Test
    void aJobWhoseReplicasAllFinishedGetsNoPodAgain(
            ApiClient client, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet) throws Exception {
        nodes.create(FakeGpuNodeSpec.of("done", 8, 81_920, "NVIDIA-A100-SXM4-80GB"));
        nodes.create(FakeGpuNodeSpec.of("done", 8, 81_920, "NVIDIA-A100-SXM4-80GB"));
        DynamicKubernetesApi pytorchJobs = new DynamicKubernetesApi("kubeflow.org", "v1", "pytorchjobs", client);
        String replica = """
        {"replicas": 1, "restartPolicy": "OnFailure", "template": {"spec": {"containers": [{"name": "pytorch",
          "image": "registry.example/train:1", "resources": {"limits": {"nvidia.com/gpu": 8}}}]}}}""";
        assertThat(pytorchJobs
                        .create(new DynamicKubernetesObject(json("""
        {"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "metadata": {"name": "done", "namespace": "%s"},
         "spec": {"pytorchReplicaSpecs": {"Master": %s, "Worker": %s}}}
        """.formatted(namespace.name(), replica, replica))))
                        .isSuccess())
                .isTrue();
        Await.until(
                "master and worker to run",
                () -> pods(client, namespace),
                pods -> pods.size() == 2
                        && pods.stream()
                                .allMatch(p -> "Running".equals(p.getStatus().getPhase())));

        kubelet.succeed(namespace.name(), "done-master-0");
        kubelet.succeed(namespace.name(), "done-worker-0");
        Await.until(
                "both replicas to finish",
                () -> pods(client, namespace),
                pods -> pods.size() == 2
                        && pods.stream()
                                .allMatch(p -> "Succeeded".equals(p.getStatus().getPhase())));
        Await.until(
                "the operator's Succeeded condition",
                () -> pytorchJobs.get(namespace.name(), "done").getObject().getRaw(),
                job -> hasTrueCondition(job, "Succeeded"));
        new CoreV1Api(client)
                .deleteNamespacedPod("done-master-0", namespace.name())
                .gracePeriodSeconds(0)
                .execute();

        Thread.sleep(1_500); // five passes of the operator
        assertThat(pods(client, namespace))
                .as("a finished job's deleted pod (its node removed, say) is not made again")
                .extracting(p -> p.getMetadata().getName())
                .containsExactly("done-worker-0");
    }

    @Test
    void trainJobRunsNumNodesPodsShapedByTheRuntimeAndItsPatches(
            ApiClient client, TestNamespace namespace, FakeGpuNodes nodes) {
        FakeGpuNode first = nodes.create(FakeGpuNodeSpec.of("tj", 8, 81_920, "NVIDIA-H100-80GB-HBM3"));
        FakeGpuNode second = nodes.create(FakeGpuNodeSpec.of("tj", 8, 81_920, "NVIDIA-H100-80GB-HBM3"));
        nodes.create(FakeGpuNodeSpec.of("tj-decoy", 8, 81_920, "NVIDIA-H100-80GB-HBM3"));
        String runtimeName = "torch-" + UUID.randomUUID().toString().substring(0, 8);
        DynamicKubernetesApi runtimes =
                new DynamicKubernetesApi("trainer.kubeflow.org", "v1alpha1", "clustertrainingruntimes", client);
        runtimes.create(new DynamicKubernetesObject(json("""
        {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "ClusterTrainingRuntime",
         "metadata": {"name": "%s"},
         "spec": {"mlPolicy": {"numNodes": 1, "torch": {}}, "template": {"spec": {"replicatedJobs": [
           {"name": "node", "template": {"spec": {"template": {"spec": {"containers": [
             {"name": "node", "image": "registry.example/torch:2"}]}}}}}]}}}}
        """.formatted(runtimeName))));
        try {
            DynamicKubernetesApi trainJobs =
                    new DynamicKubernetesApi("trainer.kubeflow.org", "v1alpha1", "trainjobs", client);
            KubernetesApiResponse<DynamicKubernetesObject> created = trainJobs.create(new DynamicKubernetesObject(
                    json("""
          {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob",
           "metadata": {"name": "llm", "namespace": "%s"},
           "spec": {"runtimeRef": {"name": "%s"},
             "trainer": {"numNodes": 2, "env": [{"name": "EPOCHS", "value": "3"}],
                         "resourcesPerNode": {"limits": {"nvidia.com/gpu": 8}}},
             "runtimePatches": [{"manager": "quotient.io/placement", "trainingRuntimeSpec": {"template": {"spec": {
               "replicatedJobs": [{"name": "node", "template": {"spec": {"template": {
                 "metadata": {"labels": {"quotient.io/job": "llm"}},
                 "spec": {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
                   "nodeSelectorTerms": [{"matchExpressions": [{"key": "kubernetes.io/hostname", "operator": "In",
                     "values": ["%s", "%s"]}]}]}}},
                   "containers": [{"name": "node", "env": [{"name": "QUOTIENT_PLACED", "value": "true"}]}]}}}}}]}}}}]}}
          """.formatted(namespace.name(), runtimeName, first.name(), second.name()))));
            assertThat(created.isSuccess())
                    .as("create answered %s", created.getStatus())
                    .isTrue();

            List<V1Pod> running = Await.until(
                    "both nodes of the TrainJob to run",
                    () -> pods(client, namespace),
                    pods -> pods.size() == 2
                            && pods.stream()
                                    .allMatch(
                                            p -> "Running".equals(p.getStatus().getPhase())));

            assertThat(running)
                    .extracting(p -> p.getMetadata().getName())
                    .containsExactlyInAnyOrder("llm-node-0-0", "llm-node-0-1");
            assertThat(running.stream().map(p -> p.getSpec().getNodeName()).collect(Collectors.toSet()))
                    .isEqualTo(Set.of(first.name(), second.name()));
            V1Pod pod = running.get(0);
            assertThat(pod.getMetadata().getLabels())
                    .containsEntry("quotient.io/job", "llm")
                    .containsEntry(TrainJobPods.JOBSET_NAME_LABEL, "llm");
            var container = pod.getSpec().getContainers().get(0);
            assertThat(container.getImage()).isEqualTo("registry.example/torch:2");
            assertThat(container.getEnv()).extracting(e -> e.getName()).containsExactly("EPOCHS", "QUOTIENT_PLACED");
            assertThat(container
                            .getResources()
                            .getLimits()
                            .get("nvidia.com/gpu")
                            .getNumber()
                            .intValue())
                    .isEqualTo(8);
        } finally {
            runtimes.delete(runtimeName);
        }
    }

    private static List<V1Pod> pods(ApiClient client, TestNamespace namespace) throws ApiException {
        return new CoreV1Api(client)
                .listNamespacedPod(namespace.name())
                .labelSelector(TrainingPods.OPERATOR_LABEL + "=true")
                .execute()
                .getItems();
    }

    private static JsonObject json(String text) {
        return JsonParser.parseString(text).getAsJsonObject();
    }

    /** Whether the object's status carries the condition with status True (field order in the JSON is the server's). */
    private static boolean hasTrueCondition(JsonObject object, String type) {
        JsonObject status = object.getAsJsonObject("status");
        if (status == null || !status.has("conditions")) {
            return false;
        }
        for (var condition : status.getAsJsonArray("conditions")) {
            JsonObject entry = condition.getAsJsonObject();
            if (type.equals(entry.get("type").getAsString())
                    && "True".equals(entry.get("status").getAsString())) {
                return true;
            }
        }
        return false;
    }
}
