package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code quotient serve} in cluster mode auto finds the cluster through {@code KUBECONFIG} and places on its nodes. */
@RealKubernetes
class KubeconfigIT {

    @BeforeAll
    static void installCrd(ApiClient client) {
        QuotientManifests.installCrd(client);
    }

    @Test
    void serveFindsTheClusterThroughKubeconfig(
            ControlPlane plane, TestNamespace service, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir) {
        nodes.create(FakeGpuNodeSpec.of("kubeconfig", 8, 81920, "NVIDIA-H100-80GB-HBM3"));
        Path teams = TeamsFile.write(dir.resolve("teams.yaml"), service.name(), new TeamsFile.Quota("team-a", 4, null));
        try (QuotientService quotient = QuotientService.process(
                "kubeconfig",
                plane,
                service.name(),
                teams,
                dir.resolve("logs"),
                Map.of("KUBECONFIG", plane.kubeconfig().toString()),
                "--quotient.cluster.mode=auto",
                "--quotient.kubeconfig=")) {
            assertThat(quotient.log())
                    .contains(
                            "cluster mode: Kubernetes cluster "
                                    + plane.apiClient().getBasePath(),
                            "of kubeconfig " + plane.kubeconfig() + " (from KUBECONFIG)");
            // accepted, and placed on the cluster's node: at once (201) or, as one run of the whole suite saw right
            // after the service started, queued first and placed by a later pass (202, then Placed)
            assertThat(quotient.api()
                            .deploy("team-a", Requests.wholeGpus("found", 1))
                            .status())
                    .isIn(201, 202);
            Await.until(
                    "the job to be placed on a node of the cluster",
                    () -> quotient.api().job("team-a", "found"),
                    job -> job.status() == 200 && job.text("node") != null);
            assertThat(new ClusterFacts(plane.apiClient(), service.name()).gpuJobs())
                    .hasSize(1);
        }
    }
}
