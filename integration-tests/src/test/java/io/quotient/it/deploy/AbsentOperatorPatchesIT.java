package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import io.quotient.it.kubeflow.KubeflowCrds;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31, finding 11, on the real control plane: with no training operator running, an adopted PyTorchJob stays
 * placed without pods; the service used to send its placement PATCH again on every re-queue pass (one a second
 * here). The PATCHes the service's own API client sends for the PyTorchJob are counted.
 */
@RealKubernetes
class AbsentOperatorPatchesIT {

    @Test
    void anAdoptedPyTorchJobWithoutItsOperatorIsNotPatchedAgainAndAgain(
            ControlPlane plane, TestNamespace service, FakeGpuNodes nodes, @TempDir Path dir) throws Exception {
        for (int i = 0; i < 2; i++) {
            nodes.create(FakeGpuNodeSpec.of("absent-op", 8, 81920, "NVIDIA-A100-SXM4-80GB"));
        }
        AdoptionPlane adoption = AdoptionPlane.prepare(plane, dir);
        ApiClient user = adoption.user;
        KubeflowCrds.install(user);
        DynamicKubernetesApi pytorchJobs = adoption.pytorchJobs;
        try (TestNamespace team = TestNamespace.create(user, plane.serverMinorVersion(), "team-o")) {
            try (AdoptionPlane.Serving serving = adoption.serve(
                    service,
                    team,
                    "teams:\n  - name: team-o\n" + "    guaranteedGpus: 16\n    namespaces: [" + team.name() + "]\n")) {
                QuotientService quotient = serving.quotient();
                AtomicInteger patches = new AtomicInteger();
                String path = "/namespaces/" + team.name() + "/pytorchjobs/llm";
                ApiClient client = quotient.bean(ApiClient.class);
                client.setHttpClient(client.getHttpClient()
                        .newBuilder()
                        .addInterceptor(chain -> {
                            if ("PATCH".equals(chain.request().method())
                                    && chain.request().url().encodedPath().endsWith(path)) {
                                patches.incrementAndGet();
                            }
                            return chain.proceed(chain.request());
                        })
                        .build());

                JsonObject llm = Await.until(
                        "the webhook to suspend a 2 x 8-GPU PyTorchJob",
                        () -> AdoptedWorkloads.recreate(
                                pytorchJobs, ForeignWorkloads.pyTorchJob(team.name(), "llm", 2, 8)),
                        AdoptedWorkloads::adopted);
                assertThat(llm).isNotNull();
                QuotientApi api = quotient.api();
                Await.until(
                        "the adopted job to be placed",
                        () -> api.job("team-o", "llm"),
                        job -> job.status() == 200 && "Placed".equals(job.text("phase")));
                Await.until("its placement to be written", patches::get, count -> count > 0);
                int atPlacement = patches.get();

                // 30 re-queue passes (one a second) without pods: before, 30 more PATCHes
                Thread.sleep(30_000);

                assertThat(api.job("team-o", "llm").text("phase"))
                        .as("still placed")
                        .isEqualTo("Placed");
                assertThat(patches.get() - atPlacement)
                        .as("PATCHes after the placement")
                        .isLessThanOrEqualTo(1);
                JsonObject stored =
                        pytorchJobs.get(team.name(), "llm").getObject().getRaw();
                assertThat(stored.getAsJsonObject("spec")
                                .getAsJsonObject("runPolicy")
                                .get("suspend")
                                .getAsBoolean())
                        .as("the placement is on the object")
                        .isFalse();
            }
        }
    }
}
