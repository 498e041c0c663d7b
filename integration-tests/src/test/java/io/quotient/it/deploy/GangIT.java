package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
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
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Distributed training through REST (issue 12): a 4 × 8-GPU PyTorchJob is placed as one gang, and the real
 * kube-scheduler binds every replica (made by the fake training operator) to a distinct node of the gang's; a gang
 * that does not fit waits holding no GPU and runs once capacity frees; a gang within its team's guarantee evicts
 * borrowed jobs to free its nodes; an elastic gang starts with what fits (at least its minimum) and grows, restarted
 * whole, as nodes free.
 */
@RealKubernetes
class GangIT {

    @Test
    void aGangRunsOneReplicaPerChosenNodeAndAGangThatDoesNotFitWaitsHoldingNothing(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        ApiClient client = plane.apiClient();
        GangPlane.prepare(client, nodes, "gang", 5);
        Path teams =
                TeamsFile.write(dir.resolve("teams.yaml"), namespace.name(), new TeamsFile.Quota("team-a", 40, null));
        try (FakeTrainingOperator operator = FakeTrainingOperator.start(client);
                QuotientService service = QuotientService.inProcess(plane, namespace.name(), teams)) {
            QuotientApi api = service.api();
            QuotientApi.Answer first = api.deploy("team-a", gang("train", 4));
            assertThat(first.status()).as("%s", first).isEqualTo(201);
            assertThat(first.text("phase")).isEqualTo("Placed");
            Set<String> chosen = first.nodes();
            assertThat(chosen).hasSize(4);

            List<V1Pod> running = Await.until(
                    "the gang's four replicas to run",
                    () -> pods(client, namespace, "train"),
                    pods -> pods.size() == 4
                            && pods.stream()
                                    .allMatch(
                                            p -> "Running".equals(p.getStatus().getPhase())));
            Set<String> bound =
                    running.stream().map(p -> p.getSpec().getNodeName()).collect(Collectors.toSet());
            assertThat(bound)
                    .as("one replica per chosen node, bound by the kube-scheduler")
                    .isEqualTo(chosen);
            assertThat(running)
                    .allSatisfy(p -> assertThat(p.getSpec()
                                    .getContainers()
                                    .get(0)
                                    .getResources()
                                    .getLimits()
                                    .get("nvidia.com/gpu")
                                    .getNumber()
                                    .intValue())
                            .isEqualTo(8));

            QuotientApi.Answer second = api.deploy("team-a", gang("second", 2));
            assertThat(second.status()).as("%s", second).isEqualTo(202);
            assertThat(second.text("reason")).contains("needs 2 nodes with 8 free");
            assertThat(api.team("team-a").get("allocatedGpus").getAsDouble())
                    .as("the waiting gang holds nothing")
                    .isEqualTo(32);

            assertThat(api.delete("team-a", "train").status()).isBetween(200, 204);
            Await.until(
                    "the waiting gang to be placed by the re-queue",
                    () -> api.job("team-a", "second").text("phase"),
                    phase -> "Placed".equals(phase) || "Running".equals(phase));
            Await.until(
                    "the second gang's two replicas to run",
                    () -> pods(client, namespace, "second"),
                    pods -> pods.size() == 2
                            && pods.stream()
                                    .allMatch(
                                            p -> "Running".equals(p.getStatus().getPhase()))
                            && pods.stream()
                                            .map(p -> p.getSpec().getNodeName())
                                            .distinct()
                                            .count()
                                    == 2);
            assertThat(operator.lastFailure()).isNull();
        }
    }

    @Test
    void aReclaimThatNeedsAGangsGpusEvictsTheWholeGangAndRequeuesIt(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        ApiClient client = plane.apiClient();
        GangPlane.prepare(client, nodes, "reclaim-gang", 4);
        Path teams = TeamsFile.write(
                dir.resolve("teams.yaml"),
                namespace.name(),
                new TeamsFile.Quota("team-a", 0, null),
                new TeamsFile.Quota("team-b", 32, null));
        try (FakeTrainingOperator operator = FakeTrainingOperator.start(client);
                QuotientService service = QuotientService.inProcess(plane, namespace.name(), teams)) {
            QuotientApi api = service.api();
            QuotientApi.Answer borrowed = api.deploy("team-a", gang("borrower", 4));
            assertThat(borrowed.status()).as("%s", borrowed).isEqualTo(201);
            assertThat(borrowed.text("quotaState")).isEqualTo("OverQuota");
            Await.until(
                    "the borrowing gang to run",
                    () -> pods(client, namespace, "borrower"),
                    pods -> pods.size() == 4
                            && pods.stream()
                                    .allMatch(
                                            p -> "Running".equals(p.getStatus().getPhase())));

            QuotientApi.Answer claim = api.deploy("team-b", Requests.wholeGpus("claim", 8));
            assertThat(claim.status()).as("%s", claim).isEqualTo(201);
            assertThat(api.job("team-a", "borrower").text("phase")).isIn("Pending", "Preempted");
            assertThat(api.team("team-a").get("allocatedGpus").getAsDouble())
                    .as("the whole gang is freed")
                    .isZero();
            Await.until(
                    "every replica of the evicted gang to go",
                    () -> pods(client, namespace, "borrower"),
                    List::isEmpty);
            new ClusterFacts(client, namespace.name()).awaitRunningPod("team-b", "claim");
            Await.until(
                    "the re-queued gang to say what it waits for",
                    () -> api.job("team-a", "borrower").text("reason"),
                    reason -> reason != null && reason.contains("needs 4 nodes with 8 free"));
            assertThat(operator.lastFailure()).isNull();
        }
    }

    @Test
    void aWaitingGangWithinItsGuaranteeEvictsBorrowedJobsToFreeItsNodes(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        ApiClient client = plane.apiClient();
        GangPlane.prepare(client, nodes, "claim-gang", 2);
        Path teams = TeamsFile.write(
                dir.resolve("teams.yaml"),
                namespace.name(),
                new TeamsFile.Quota("team-a", 0, null),
                new TeamsFile.Quota("team-b", 16, null));
        try (FakeTrainingOperator operator = FakeTrainingOperator.start(client);
                QuotientService service = QuotientService.inProcess(plane, namespace.name(), teams)) {
            QuotientApi api = service.api();
            ClusterFacts facts = new ClusterFacts(client, namespace.name());
            for (String name : List.of("borrowed-1", "borrowed-2")) {
                QuotientApi.Answer borrowed = api.deploy("team-a", Requests.wholeGpus(name, 8));
                assertThat(borrowed.status()).as("%s", borrowed).isEqualTo(201);
                facts.awaitRunningPod("team-a", name);
            }

            QuotientApi.Answer claim = api.deploy("team-b", gang("claim", 2));

            assertThat(claim.status()).as("%s", claim).isEqualTo(201);
            assertThat(claim.text("quotaState")).isEqualTo("InQuota");
            Await.until(
                    "the borrowed job to say who took its GPUs",
                    () -> api.job("team-a", "borrowed-1").text("reason"),
                    reason -> reason != null
                            && reason.contains("Preempted by team-b reclaiming its guarantee for" + " team-b/claim"));
            assertThat(api.team("team-a").get("allocatedGpus").getAsDouble()).isZero();
            List<V1Pod> running = Await.until(
                    "the claiming gang's two replicas to run",
                    () -> pods(client, namespace, "claim"),
                    pods -> pods.size() == 2
                            && pods.stream()
                                    .allMatch(
                                            p -> "Running".equals(p.getStatus().getPhase())));
            assertThat(running.stream().map(p -> p.getSpec().getNodeName()).collect(Collectors.toSet()))
                    .isEqualTo(claim.nodes());
            assertThat(operator.lastFailure()).isNull();
        }
    }

    @Test
    void anElasticGangStartsWithWhatFitsAndGrowsWhenNodesFree(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        ApiClient client = plane.apiClient();
        GangPlane.prepare(client, nodes, "elastic", 4);
        Path teams =
                TeamsFile.write(dir.resolve("teams.yaml"), namespace.name(), new TeamsFile.Quota("team-a", 48, null));
        try (FakeTrainingOperator operator = FakeTrainingOperator.start(client);
                QuotientService service = QuotientService.inProcess(plane, namespace.name(), teams)) {
            QuotientApi api = service.api();
            ClusterFacts facts = new ClusterFacts(client, namespace.name());
            for (String name : List.of("blocker-1", "blocker-2")) {
                assertThat(api.deploy("team-a", Requests.wholeGpus(name, 8)).status())
                        .isEqualTo(201);
                facts.awaitRunningPod("team-a", name);
            }

            QuotientApi.Answer elastic = api.deploy("team-a", Requests.with(gang("elastic", 4), "minReplicas", 2));

            assertThat(elastic.status()).as("%s", elastic).isEqualTo(201);
            assertThat(elastic.nodes())
                    .as("placed with the two nodes free, its minimum")
                    .hasSize(2);
            awaitReplicasOn(client, namespace, "elastic", elastic.nodes());

            assertThat(api.delete("team-a", "blocker-1").status()).isBetween(200, 204);
            Set<String> three = Await.until(
                    "the gang to grow to three replicas",
                    () -> api.job("team-a", "elastic").nodes(),
                    placed -> placed.size() == 3);
            awaitReplicasOn(client, namespace, "elastic", three);

            assertThat(api.delete("team-a", "blocker-2").status()).isBetween(200, 204);
            Set<String> four = Await.until(
                    "the gang to grow to all four replicas",
                    () -> api.job("team-a", "elastic").nodes(),
                    placed -> placed.size() == 4);
            awaitReplicasOn(client, namespace, "elastic", four);
            assertThat(new CoreV1Api(client)
                            .listNamespacedEvent(namespace.name())
                            .execute()
                            .getItems())
                    .as("the growth is told as an Event")
                    .anySatisfy(event -> assertThat(event.getReason()).isEqualTo("Grown"));
            assertThat(operator.lastFailure()).isNull();
        }
    }

    /** Waits until exactly one running replica of the job sits on each of {@code nodes}, bound by the scheduler. */
    private static void awaitReplicasOn(ApiClient client, TestNamespace namespace, String job, Set<String> nodes)
            throws Exception {
        Await.until(
                "one running replica of " + job + " on each of " + nodes,
                () -> pods(client, namespace, job),
                pods -> pods.size() == nodes.size()
                        && pods.stream()
                                .allMatch(p -> "Running".equals(p.getStatus().getPhase()))
                        && pods.stream()
                                .map(p -> p.getSpec().getNodeName())
                                .collect(Collectors.toSet())
                                .equals(nodes));
    }

    private static Map<String, Object> gang(String name, int replicas) {
        return Requests.with(
                Requests.with(Requests.wholeGpus(name, 8), "template", "pytorchjob"), "replicas", replicas);
    }

    private static List<V1Pod> pods(ApiClient client, TestNamespace namespace, String job) throws ApiException {
        return new CoreV1Api(client)
                .listNamespacedPod(namespace.name())
                .labelSelector("quotient.io/job=" + job)
                .execute()
                .getItems();
    }
}
