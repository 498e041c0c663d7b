package io.quotient.it.deploy;

import static io.quotient.it.deploy.ClusterInvariants.podsMatchPlacement;
import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When a job's pods match its placement, as the end checks of the deploy ITs and the soak judge it. */
class ClusterInvariantsTest {

    @Test
    void aSingleJobHasOneRunningPodOnItsNode() {
        assertThat(podsMatchPlacement(List.of(pod("a", "Running")), List.of("a")))
                .isTrue();
        assertThat(podsMatchPlacement(List.of(), List.of("a"))).as("no pod").isFalse();
        assertThat(podsMatchPlacement(List.of(pod("b", "Running")), List.of("a")))
                .as("elsewhere")
                .isFalse();
        assertThat(podsMatchPlacement(List.of(pod(null, "Pending")), List.of("a")))
                .as("unbound")
                .isFalse();
    }

    @Test
    void aGangHasOneStartedPodPerReplicaOnItsNodes() {
        List<String> placement = List.of("a", "b");
        assertThat(podsMatchPlacement(List.of(pod("a", "Running"), pod("b", "Running")), placement))
                .isTrue();
        assertThat(podsMatchPlacement(List.of(pod("a", "Succeeded"), pod("b", "Running")), placement))
                .isTrue();
        assertThat(podsMatchPlacement(List.of(pod("a", "Running"), pod("a", "Succeeded")), placement))
                .as("a replica made again beside a finished one (anti-affinity counts live pods only)")
                .isTrue();
    }

    @Test
    void aGangIsRefusedTwoLiveReplicasOnANodeAPodOutsideItsNodesOrAMissingReplica() {
        List<String> placement = List.of("a", "b");
        assertThat(podsMatchPlacement(List.of(pod("a", "Running"), pod("a", "Running")), placement))
                .isFalse();
        assertThat(podsMatchPlacement(List.of(pod("a", "Running"), pod("c", "Running")), placement))
                .isFalse();
        assertThat(podsMatchPlacement(List.of(pod("a", "Running")), placement)).isFalse();
        assertThat(podsMatchPlacement(List.of(pod("a", "Running"), pod("b", "Pending")), placement))
                .isFalse();
    }

    private static V1Pod pod(String node, String phase) {
        return new V1Pod()
                .metadata(new V1ObjectMeta().name("p"))
                .spec(new V1PodSpec().nodeName(node))
                .status(new V1PodStatus().phase(phase));
    }
}
