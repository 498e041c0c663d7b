package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Node;
import io.quotient.adapters.k8s.TenantScope;
import io.quotient.adapters.k8s.observation.ClusterInformers;
import io.quotient.adapters.k8s.observation.KubernetesClusterObserver;
import io.quotient.core.tenancy.TeamNamespaces;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.FakeGpuNode;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.RealKubernetes;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The cluster observer against the real API server: the fake GPU node's facts, cordoned and deleted nodes, and a
 * cache that has not synced.
 */
@RealKubernetes
class ClusterObserverIT extends AdaptersOnRealPlane {

    @Test
    void existingNodesHoldCordonedOnesLoseDeletedOnesAndAreUnknownBeforeTheCacheSynced() throws Exception {
        FakeGpuNode node = nodes.create(FakeGpuNodeSpec.of("exists", 2, 81920, "NVIDIA-H100-80GB-HBM3"));
        // another node stays: a view holding no node at all is "unknown", not "every node is gone"
        FakeGpuNode stays = nodes.create(FakeGpuNodeSpec.of("exists", 2, 81920, "NVIDIA-H100-80GB-HBM3"));
        Await.until(
                "the observer to list node " + node.name(),
                () -> adapters.observer.node(node.name()).orElse(null));
        Await.until(
                "the observer to list node " + stays.name(),
                () -> adapters.observer.node(stays.name()).orElse(null));
        V1Node cordoned = core.readNode(node.name()).execute();
        cordoned.getSpec().setUnschedulable(true);
        core.replaceNode(node.name(), cordoned).execute();

        Await.until(
                "the cordoned node to be no place for new jobs",
                () -> adapters.observer.node(node.name()),
                Optional::isEmpty);
        assertThat(adapters.observer.existingNodes())
                .as("a cordoned node still holds its jobs")
                .hasValueSatisfying(names -> assertThat(names).contains(node.name()));

        nodes.delete(node.name());
        Set<String> left = Await.until(
                "the deleted node to be gone from the existing ones",
                () -> adapters.observer.existingNodes().orElse(Set.of(node.name())),
                names -> !names.contains(node.name()));
        assertThat(left).contains(stays.name());

        try (ClusterInformers unstarted = new ClusterInformers(plane.newApiClient(), namespace.name())) {
            KubernetesClusterObserver blind = new KubernetesClusterObserver(
                    unstarted,
                    new TenantScope(namespace.name(), () -> TeamNamespaces.defaults(List.of())),
                    Clock.systemUTC(),
                    Duration.ofHours(1));
            assertThat(blind.existingNodes())
                    .as("a cache that has not synced knows of no node, not of none")
                    .isEmpty();
        }
    }

    @Test
    void observerSeesTheFakeGpuNodeWithItsFacts() throws Exception {
        FakeGpuNode node = nodes.create(FakeGpuNodeSpec.of("obs", 4, 40960, "NVIDIA-A100-SXM4-40GB"));

        var spec = Await.until(
                "the observer to list node " + node.name(),
                () -> adapters.observer.node(node.name()).orElse(null));

        assertThat(spec.gpuCount()).isEqualTo(4);
        assertThat(spec.gpuMemoryMib()).isEqualTo(40960);
        assertThat(spec.gpuModel()).isEqualTo("NVIDIA-A100-SXM4-40GB");
        assertThat(spec.cpuMilli()).isEqualTo(16_000);
        assertThat(adapters.observer.fractionReadyNodes()).contains(node.name());
    }
}
