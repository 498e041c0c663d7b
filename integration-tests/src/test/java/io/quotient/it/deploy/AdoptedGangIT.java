package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import io.quotient.it.kubeflow.FakeTrainingOperator;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Adopted workloads as gangs on the real control plane: a PyTorchJob and a TrainJob adopted by the webhooks are
 * placed whole, one replica per chosen node, and preempted by suspension (their pods deleted by Quotient itself,
 * even when the training operator misses the suspension), then re-queued with their reason.
 */
@RealKubernetes
class AdoptedGangIT {

    @Test
    void adoptedPyTorchJobAndTrainJobRunAsGangsAndArePreemptedBySuspension(
            ControlPlane plane, TestNamespace service, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        for (int i = 0; i < 4; i++) {
            nodes.create(FakeGpuNodeSpec.of("adopt-gang", 8, 81920, "NVIDIA-A100-SXM4-80GB"));
        }
        AdoptionPlane adoption = AdoptionPlane.prepare(plane, dir);
        ApiClient user = adoption.user;
        DynamicKubernetesApi pytorchJobs = adoption.pytorchJobs;
        DynamicKubernetesApi gpuJobs = adoption.gpuJobs;
        DynamicKubernetesApi trainJobs = adoption.trainJobs;
        try (TestNamespace team = TestNamespace.create(user, plane.serverMinorVersion(), "team-g");
                FakeTrainingOperator operator = FakeTrainingOperator.start(user)) {
            // team-g borrows (no guarantee); team-b's guarantee of 32 takes the GPUs back
            try (AdoptionPlane.Serving serving =
                    adoption.serve(service, team, borrowerAndClaimant("team-g", team, service, 32))) {
                QuotientService quotient = serving.quotient();
                JsonObject llm = Await.until(
                        "the webhook to suspend a 4 x 8-GPU PyTorchJob",
                        () -> AdoptedWorkloads.recreate(
                                pytorchJobs, ForeignWorkloads.pyTorchJob(team.name(), "llm", 4, 8)),
                        AdoptedWorkloads::adopted);
                String uid = llm.getAsJsonObject("metadata").get("uid").getAsString();

                QuotientApi api = quotient.api();
                QuotientApi.Answer placed = Await.until(
                        "the adopted job to be placed",
                        () -> api.job("team-g", "llm"),
                        job -> job.status() == 200
                                && ("Placed".equals(job.text("phase")) || "Running".equals(job.text("phase"))));
                Set<String> chosen = AdoptedWorkloads.chosenNodes(placed);
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
                        () -> AdoptedWorkloads.pods(user, team.name(), "llm"),
                        pods -> pods.size() == 4
                                && pods.stream()
                                        .allMatch(p ->
                                                "Running".equals(p.getStatus().getPhase())));
                assertThat(running.stream().map(p -> p.getSpec().getNodeName()).collect(Collectors.toSet()))
                        .as("one replica per chosen node, bound by the kube-scheduler")
                        .isEqualTo(chosen);
                assertThat(AdoptedWorkloads.suspended(pytorchJobs, team.name())).isFalse();

                QuotientApi.Answer claim = api.deploy("team-b", Requests.wholeGpus("claim", 8));
                assertThat(claim.status()).as("%s", claim).isEqualTo(201);
                Await.until(
                        "the preempted PyTorchJob to be suspended again",
                        () -> AdoptedWorkloads.suspended(pytorchJobs, team.name()),
                        Boolean::booleanValue);
                Await.until(
                        "every replica of the preempted gang to go",
                        () -> AdoptedWorkloads.pods(user, team.name(), "llm"),
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
                    assertThat(AdoptedWorkloads.adopted(
                                    AdoptedWorkloads.created(trainJobs.create(new DynamicKubernetesObject(
                                            ForeignWorkloads.trainJob(team.name(), "tj", TrainJobIT.RUNTIME, 2, 8))))))
                            .isTrue();
                    QuotientApi.Answer tj = Await.until(
                            "the adopted TrainJob to be placed",
                            () -> api.job("team-g", "tj"),
                            job -> job.status() == 200
                                    && ("Placed".equals(job.text("phase")) || "Running".equals(job.text("phase"))));
                    Set<String> tjNodes = AdoptedWorkloads.chosenNodes(tj);
                    assertThat(tjNodes).hasSize(2);
                    List<V1Pod> nodePods = Await.until(
                            "the TrainJob's two node pods to run",
                            () -> AdoptedWorkloads.pods(user, team.name(), "tj"),
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
        AdoptionPlane adoption = AdoptionPlane.prepare(plane, dir);
        ApiClient user = adoption.user;
        DynamicKubernetesApi pytorchJobs = adoption.pytorchJobs;
        try (TestNamespace team = TestNamespace.create(user, plane.serverMinorVersion(), "team-m");
                FakeTrainingOperator operator = FakeTrainingOperator.start(user)) {
            try (AdoptionPlane.Serving serving =
                    adoption.serve(service, team, borrowerAndClaimant("team-m", team, service, 8))) {
                QuotientService quotient = serving.quotient();
                Await.until(
                        "the webhook to suspend a 2 x 8-GPU PyTorchJob",
                        () -> AdoptedWorkloads.recreate(
                                pytorchJobs, ForeignWorkloads.pyTorchJob(team.name(), "llm", 2, 8)),
                        AdoptedWorkloads::adopted);
                Await.until(
                        "the two replicas to run",
                        () -> AdoptedWorkloads.pods(user, team.name(), "llm"),
                        pods -> pods.size() == 2
                                && pods.stream()
                                        .allMatch(p ->
                                                "Running".equals(p.getStatus().getPhase())));
                operator.close(); // the controller sees nothing from now on

                QuotientApi.Answer claim = quotient.api().deploy("team-b", Requests.wholeGpus("claim", 8));
                assertThat(claim.status()).as("%s", claim).isEqualTo(201);
                Await.until(
                        "the preempted PyTorchJob to be suspended again",
                        () -> AdoptedWorkloads.suspended(pytorchJobs, team.name()),
                        Boolean::booleanValue);
                Await.until(
                        "Quotient to delete the preempted gang's pods",
                        () -> AdoptedWorkloads.pods(user, team.name(), "llm"),
                        pods -> pods.stream().allMatch(p -> p.getMetadata().getDeletionTimestamp() != null));
            }
        }
    }

    /** A team without a guarantee in its own namespace, which borrows, and team-b, whose guarantee takes GPUs back. */
    private static String borrowerAndClaimant(
            String borrower, TestNamespace namespace, TestNamespace service, int claimGpus) {
        return "teams:\n  - name: " + borrower + "\n    guaranteedGpus: 0\n    namespaces: [" + namespace.name() + "]\n"
                + "  - name: team-b\n    guaranteedGpus: " + claimGpus + "\n    namespaces: [" + service.name() + "]\n";
    }
}
