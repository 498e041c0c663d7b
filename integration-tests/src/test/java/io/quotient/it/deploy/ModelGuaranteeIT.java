package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * Guarantees per GPU model on the real control plane (issue 35): fake GPU nodes of two models; a team guaranteed 2
 * H100s takes back H100s from a borrower and leaves its A100 job alone; the teams view shows the group.
 */
@RealKubernetes
class ModelGuaranteeIT {

    private static final String H100 = "NVIDIA-H100-80GB-HBM3";
    private static final String A100 = "NVIDIA-A100-SXM4-80GB";

    @BeforeAll
    static void installCrd(ApiClient client) {
        QuotientManifests.installCrd(client);
    }

    @Test
    void anH100GuaranteeTakesBackH100sNotA100s(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir) {
        nodes.create(FakeGpuNodeSpec.of("h100", 4, 81920, H100));
        nodes.create(FakeGpuNodeSpec.of("a100", 4, 81920, A100));
        List<String> ns = List.of(namespace.name());
        Map<String, Object> teams = Map.of(
                "teams",
                List.of(
                        Map.of(
                                "name",
                                "owner",
                                "namespaces",
                                ns,
                                "guarantees",
                                List.of(Map.of("models", List.of(H100), "gpus", 2))),
                        Map.of("name", "borrower", "guaranteedGpus", 0, "namespaces", ns)));
        Path file = TeamsFile.writeText(dir.resolve("teams.yaml"), new Yaml().dump(teams));
        ClusterFacts cluster = new ClusterFacts(plane.apiClient(), namespace.name());

        try (QuotientService service = QuotientService.inProcess(plane, namespace.name(), file)) {
            QuotientApi api = service.api();
            assertThat(api.deploy("borrower", pinned("on-h100", 4, H100)).status())
                    .isEqualTo(201);
            assertThat(api.deploy("borrower", pinned("on-a100", 4, A100)).status())
                    .isEqualTo(201);

            QuotientApi.Answer two = api.deploy("owner", Requests.wholeGpus("two", 2));
            assertThat(two.status()).as("%s", two).isEqualTo(201);
            assertThat(api.job("borrower", "on-h100").text("phase")).isIn("Pending", "Preempted");
            assertThat(api.job("borrower", "on-a100").text("phase")).isIn("Placed", "Running");

            JsonObject group =
                    api.team("owner").getAsJsonArray("modelGroups").get(0).getAsJsonObject();
            assertThat(group.get("name").getAsString()).isEqualTo(H100);
            assertThat(group.get("guaranteedGpus").getAsDouble()).isEqualTo(2);
            assertThat(group.get("heldGpus").getAsDouble()).isEqualTo(2);
            assertThat(group.get("borrowedGpus").getAsDouble()).isEqualTo(0);
            // the H100 group's fair share: the owner's 2 guaranteed; the other 2 go to the borrower's re-queued
            // H100 job, the only other demand for H100s (docs/fairness.md, "Fair share per model group")
            assertThat(group.get("fairShareGpus").getAsDouble()).isEqualTo(2);
            cluster.awaitRunningPod("owner", "two");
        }
    }

    private static Map<String, Object> pinned(String name, int gpus, String model) {
        return Requests.with(Requests.wholeGpus(name, gpus), "gpuModels", List.of(model));
    }
}
