package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.quotient.adapters.k8s.KubernetesNames;
import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.GpuSlot;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobStatus;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNode;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After a crash at any point of a deploy or a preemption, the service rebuilds from the API server: no
 * duplicate Job, no leaked reservation pod, no lost job.
 */
@RealKubernetes
class CrashSafetyIT {

    private static final Duration CONVERGENCE = Duration.ofSeconds(120);

    @BeforeAll
    static void installCrd(ApiClient client) {
        QuotientManifests.installCrd(client);
    }

    /** The states a leader leaves when it dies between two writes, made exactly, then handed to a new service. */
    @Test
    void newServiceFinishesWhatADeadLeaderLeftHalfDone(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        FakeGpuNode node = nodes.create(FakeGpuNodeSpec.of("crash", 4, 81920, "NVIDIA-H100-80GB-HBM3"));
        Path teams =
                TeamsFile.write(dir.resolve("teams.yaml"), namespace.name(), new TeamsFile.Quota("team-a", 4, null));
        ClusterFacts cluster = new ClusterFacts(plane.apiClient(), namespace.name());
        try (AdapterFixture deadLeader =
                new AdapterFixture(plane.newApiClient(), plane.newApiClient(), namespace.name())) {
            Await.until(
                    "the dead leader's view of " + node.name(),
                    () -> deadLeader.observer.node(node.name()).orElse(null));
            // 1. the Job was created, then the process died before writing the placement
            JobRecord orphan = deadLeader.store.create(AdapterFixture.wholeGpuRecord("team-a", "job-no-status", 1));
            deadLeader.gateway.deploy(
                    orphan,
                    new PlacedJob(orphan.spec(), node.name(), List.of(0), 1000, QuotaState.IN_QUOTA, Instant.now()),
                    List.of(new GpuBinding(0, null, 1)));
            // 2. the placement was written, then the process died before creating the Job
            JobRecord placed = deadLeader.store.create(AdapterFixture.wholeGpuRecord("team-a", "status-no-job", 1));
            deadLeader.store.updateStatus(
                    placed,
                    JobStatus.placed(
                            node.name(), List.of(new GpuBinding(1, null, 1)), QuotaState.IN_QUOTA, Instant.now()));
            // 3. a GPU was reserved for a fraction whose placement was never written
            deadLeader.gateway.ensureReservation(new GpuSlot(node.name(), 3));
        }
        Await.until("the leaked reservation pod to exist", cluster::reservationPods, pods -> pods.size() == 1);

        try (QuotientService service = QuotientService.inProcess(plane, namespace.name(), teams)) {
            ClusterInvariants.awaitConsistent(cluster, CONVERGENCE);

            assertThat(cluster.jobs()).hasSize(2);
            assertThat(cluster.reservationPods()).isEmpty();
            for (String name : List.of("job-no-status", "status-no-job")) {
                assertThat(service.api().job("team-a", name).text("phase")).isIn("Placed", "Running");
                assertThat(cluster.livePodsOf("team-a", name)).hasSize(1);
            }
        }
    }

    /**
     * SIGKILL at exact points (the crash points of {@code io.quotient.it.deploy.crash}, on this module's classpath only):
     * right after a Job is created, before its status says Running; then after an eviction is recorded, before the
     * evicted pods are deleted. A third service converges.
     */
    @Test
    void killedRightAfterCreatingAJobAndInTheMiddleOfAPreemptionTheNextServiceFinishesExactlyThat(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        nodes.create(FakeGpuNodeSpec.of("exact", 4, 81920, "NVIDIA-H100-80GB-HBM3"));
        Path teams = TeamsFile.write(
                dir.resolve("teams.yaml"),
                namespace.name(),
                new TeamsFile.Quota("team-a", 2, null),
                new TeamsFile.Quota("team-b", 2, null));
        ClusterFacts cluster = new ClusterFacts(plane.apiClient(), namespace.name());

        try (QuotientService creating = QuotientService.process(
                "creating",
                plane,
                namespace.name(),
                teams,
                dir,
                "--quotient.kubernetes.testing-crash-at=after-workload-created")) {
            Leadership.awaitLeading(plane, namespace.name(), creating);
            deployUntilKilled(creating, "team-a", Requests.wholeGpus("a-1", 2));
        }
        assertThat(cluster.jobs())
                .singleElement()
                .satisfies(job -> assertThat(job.getMetadata().getName()).isEqualTo(workloadOf("team-a", "a-1")));
        String firstJobUid = cluster.jobs().get(0).getMetadata().getUid();

        try (QuotientService evicting = QuotientService.process(
                "evicting",
                plane,
                namespace.name(),
                teams,
                dir,
                "--quotient.kubernetes.testing-crash-at=before-eviction-stop")) {
            Leadership.awaitLeading(plane, namespace.name(), evicting);
            QuotientApi.Answer borrowing = evicting.api().deploy("team-a", Requests.wholeGpus("a-2", 2));
            assertThat(borrowing.text("quotaState")).as("%s", borrowing).isEqualTo("OverQuota");
            cluster.awaitRunningPod("team-a", "a-2");
            deployUntilKilled(evicting, "team-b", Requests.wholeGpus("b-1", 2));
        }
        assertThat(statusOf(cluster, "team-a.a-2"))
                .as("the eviction was recorded")
                .isEqualTo("Preempted");
        assertThat(cluster.livePodsOf("team-a", "a-2"))
                .as("but its pods were not deleted yet")
                .hasSize(1);

        try (QuotientService recovered = QuotientService.process("recovered", plane, namespace.name(), teams, dir)) {
            ClusterInvariants.awaitConsistent(cluster, CONVERGENCE);
            QuotientApi api = recovered.api();
            Await.until(
                    "b-1 to be placed",
                    CONVERGENCE,
                    () -> api.job("team-b", "b-1").text("phase"),
                    p -> "Running".equals(p) || "Placed".equals(p));
            ClusterInvariants.awaitConsistent(cluster, CONVERGENCE);
            assertThat(api.job("team-a", "a-1").text("phase")).isEqualTo("Running");
            QuotientApi.Answer evicted = api.job("team-a", "a-2");
            assertThat(evicted.text("phase")).isEqualTo("Pending");
            assertThat(evicted.text("reason")).startsWith("Preempted by team-b");
            assertThat(new CoreV1Api(plane.apiClient())
                            .listNamespacedEvent(namespace.name())
                            .execute()
                            .getItems())
                    .as("a Preempted event on the evicted job, even though its recorder was killed")
                    .anySatisfy(event -> {
                        assertThat(event.getReason()).isEqualTo("Preempted");
                        assertThat(event.getInvolvedObject().getName()).isEqualTo("team-a.a-2");
                    });
            assertThat(cluster.jobs())
                    .extracting(job -> job.getMetadata().getName())
                    .containsExactlyInAnyOrder(workloadOf("team-a", "a-1"), workloadOf("team-b", "b-1"));
            assertThat(cluster.jobs())
                    .filteredOn(job -> job.getMetadata().getName().equals(workloadOf("team-a", "a-1")))
                    .singleElement()
                    .satisfies(job -> assertThat(job.getMetadata().getUid())
                            .as("the Job made before the first crash is kept, not made again")
                            .isEqualTo(firstJobUid));
            assertThat(cluster.gpuJobs()).as("no job lost").hasSize(3);
        }
    }

    /** Deploys a request whose decision reaches the crash point: the call fails, the process is dead. */
    private static void deployUntilKilled(QuotientService service, String team, Map<String, Object> body) {
        try {
            QuotientApi.Answer answer = service.api().deploy(team, body);
            throw new AssertionError(
                    "the service " + service.name() + " answered " + answer + " instead of dying at its crash point");
        } catch (UncheckedIOException expected) {
            Await.until(service.name() + " to be dead", service::alive, alive -> !alive);
        }
    }

    private static String statusOf(ClusterFacts cluster, String gpuJob) {
        return cluster.gpuJobs().stream()
                .filter(j -> j.getMetadata().getName().equals(gpuJob))
                .findFirst()
                .map(j -> j.getRaw().getAsJsonObject("status").get("phase").getAsString())
                .orElse(null);
    }

    /** SIGKILL in the middle of a burst of deploys that preempt borrowed jobs and reserve GPUs for fractions. */
    @Test
    void killedInTheMiddleOfPreemptionsTheServiceComesBackWithNothingLostOrDuplicated(
            ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        nodes.create(FakeGpuNodeSpec.of("kill", 8, 81920, "NVIDIA-H100-80GB-HBM3"));
        nodes.create(FakeGpuNodeSpec.of("kill", 8, 81920, "NVIDIA-H100-80GB-HBM3"));
        Path teams = TeamsFile.write(
                dir.resolve("teams.yaml"),
                namespace.name(),
                new TeamsFile.Quota("team-a", 8, null),
                new TeamsFile.Quota("team-b", 8, null));
        ClusterFacts cluster = new ClusterFacts(plane.apiClient(), namespace.name());
        List<Map<String, Object>> burst = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            burst.add(Requests.wholeGpus("b-" + i, 1));
        }
        for (int i = 1; i <= 4; i++) {
            burst.add(Requests.fraction("b-f" + i, 0.5));
        }

        QuotientService first = QuotientService.process("first", plane, namespace.name(), teams, dir);
        try {
            Leadership.awaitLeading(plane, namespace.name(), first);
            for (int i = 1; i <= 16; i++) {
                assertThat(first.api()
                                .deploy("team-a", Requests.wholeGpus("a-" + i, 1))
                                .status())
                        .isEqualTo(201);
            }
            ClusterInvariants.awaitConsistent(cluster, CONVERGENCE);
            AtomicInteger answered = new AtomicInteger();
            CompletableFuture<Void> deploys = CompletableFuture.runAsync(() -> {
                for (var body : burst) {
                    first.api().deploy("team-b", body);
                    answered.incrementAndGet();
                }
            });
            Await.until("a few of team-b's deploys", answered::get, n -> n >= 3);
            first.kill();
            deploys.handle((ok, failure) -> null).join();
        } finally {
            first.close();
        }

        try (QuotientService second = QuotientService.process("second", plane, namespace.name(), teams, dir)) {
            for (var body : burst) { // what the dead service did not record is deployed again; the rest is taken
                assertThat(second.api().deploy("team-b", body).status()).isIn(201, 202, 409);
            }
            ClusterInvariants.awaitConsistent(cluster, CONVERGENCE);
            Await.until(
                    "team-b to hold its guarantee",
                    CONVERGENCE,
                    () -> second.api().team("team-b").get("allocatedGpus").getAsDouble(),
                    gpus -> gpus == 8.0);
            ClusterInvariants.awaitConsistent(cluster, CONVERGENCE);
            assertThat(second.api().team("team-a").get("allocatedGpus").getAsDouble())
                    .isEqualTo(8.0);
            assertThat(cluster.gpuJobs()).as("no job lost").hasSize(16 + burst.size());
            assertThat(second.api().team("team-a").get("pendingJobs").getAsInt())
                    .isEqualTo(8);
        }
    }

    /** The name Quotient gives the workload (Job) of a job. */
    private static String workloadOf(String team, String job) {
        return KubernetesNames.ofWorkload(new JobId(team, job));
    }
}
