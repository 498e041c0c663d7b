package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's workload runs a second pod its Job controller does not remove (the long soak saw it after a Job was deleted
 * and made again under the same name across an API server restart): the leader's reconciliation removes the surplus
 * pod, and only it, once the controller's grace has passed; the job keeps running on its first pod.
 */
@RealKubernetes
class SurplusPodsIT {

    @BeforeAll
    static void installCrd(ApiClient client) {
        QuotientManifests.installCrd(client);
    }

    @Test
    void aSecondPodOfAOneReplicaJobIsRemovedAndTheFirstKeepsRunning(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, @TempDir Path dir) throws Exception {
        nodes.create(FakeGpuNodeSpec.of("surplus", 2, 81920, "NVIDIA-H100-80GB-HBM3"));
        Path teams =
                TeamsFile.write(dir.resolve("teams.yaml"), namespace.name(), new TeamsFile.Quota("team-a", 2, null));
        ClusterFacts cluster = new ClusterFacts(plane.apiClient(), namespace.name());

        try (QuotientService service = QuotientService.inProcess(plane, namespace.name(), teams)) {
            QuotientApi api = service.api();
            // placed at once (201), or recorded first and placed a moment later (202) when the first plan also acts on
            // jobs left on the shared control plane by earlier tests (DecisionService.deployNew); either way it runs
            assertThat(api.deploy("team-a", Requests.wholeGpus("one", 1)).status())
                    .isIn(201, 202);
            V1Pod first = cluster.awaitRunningPod("team-a", "one");

            V1Pod second = new CoreV1Api(plane.apiClient())
                    .createNamespacedPod(first.getMetadata().getNamespace(), strayCopy(first))
                    .execute();
            Await.until(
                    "the second pod to run",
                    () -> cluster.livePodsOf("team-a", "one").stream()
                            .filter(p -> p.getMetadata()
                                            .getName()
                                            .equals(second.getMetadata().getName())
                                    && "Running".equals(p.getStatus().getPhase()))
                            .findFirst()
                            .orElse(null));

            Await.until(
                    "the second pod removed",
                    () -> cluster.livePodsOf("team-a", "one").stream()
                            .map(p -> p.getMetadata().getName())
                            .toList(),
                    pods -> pods.equals(List.of(first.getMetadata().getName())));
            assertThat(api.job("team-a", "one").text("phase")).isEqualTo("Running");
        }
    }

    /**
     * The pod's container again, on its node, under another name, with the job's labels but no owner: its Job's
     * controller neither adopts it (the controller-uid label is not its own) nor the garbage collector removes it.
     */
    private static V1Pod strayCopy(V1Pod pod) {
        Map<String, String> labels = new HashMap<>(pod.getMetadata().getLabels());
        labels.remove("controller-uid");
        labels.remove("job-name");
        V1Container container = pod.getSpec().getContainers().get(0);
        return new V1Pod()
                .metadata(new V1ObjectMeta()
                        .name(pod.getMetadata().getName() + "-stray")
                        .namespace(pod.getMetadata().getNamespace())
                        .labels(labels))
                .spec(new V1PodSpec()
                        .overhead(null) // client-java's empty map is refused without a RuntimeClass
                        .nodeName(pod.getSpec().getNodeName())
                        .restartPolicy("Never")
                        .tolerations(pod.getSpec().getTolerations())
                        .addContainersItem(new V1Container()
                                .name(container.getName())
                                .image(container.getImage())
                                .command(container.getCommand())
                                .args(container.getArgs())
                                .resources(container.getResources())));
    }
}
