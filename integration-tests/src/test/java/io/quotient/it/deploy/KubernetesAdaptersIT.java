package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.BatchV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.quotient.adapters.k8s.KubernetesNames;
import io.quotient.adapters.k8s.TenantScope;
import io.quotient.adapters.k8s.observation.ClusterInformers;
import io.quotient.adapters.k8s.observation.KubernetesClusterObserver;
import io.quotient.adapters.k8s.records.ConfigMapTeamsSource;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.tenancy.TeamNamespaces;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.GpuSlot;
import io.quotient.deploy.port.JobAlreadyExistsException;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.StaleRecordException;
import io.quotient.deploy.port.WorkloadPhase;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNode;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Kubernetes adapters (store, observer, gateway) against the real API server, scheduler and controllers. */
@RealKubernetes
class KubernetesAdaptersIT {

    private ControlPlane plane;
    private TestNamespace namespace;
    private FakeGpuNodes nodes;
    private AdapterFixture adapters;
    private CoreV1Api core;

    @BeforeAll
    static void installCrd(ApiClient client) {
        QuotientManifests.installCrd(client);
    }

    @BeforeEach
    void setUp(ControlPlane plane, TestNamespace namespace, FakeGpuNodes nodes, FakeKubelet kubelet) {
        this.plane = plane;
        this.namespace = namespace;
        this.nodes = nodes;
        adapters = new AdapterFixture(plane.newApiClient(), plane.newApiClient(), namespace.name());
        core = new CoreV1Api(plane.apiClient());
    }

    @AfterEach
    void tearDown() {
        adapters.close();
    }

    @Test
    void storeRecordsFirstThenUpdatesStatusWithOptimisticConcurrency() throws Exception {
        JobRecord created = adapters.store.create(AdapterFixture.wholeGpuRecord("team-a", "train-1", 2));

        assertThat(created.version()).isNotBlank();
        assertThat(adapters.store.find(created.id()))
                .get()
                .extracting(JobRecord::phase)
                .isEqualTo(JobPhase.PENDING);
        assertThatThrownBy(() -> adapters.store.create(AdapterFixture.wholeGpuRecord("team-a", "train-1", 1)))
                .isInstanceOf(JobAlreadyExistsException.class);

        JobStatus placed = JobStatus.placed(
                "node-x",
                List.of(new GpuBinding(0, null, 1), new GpuBinding(1, null, 1)),
                QuotaState.IN_QUOTA,
                Instant.parse("2024-05-01T10:00:00Z"));
        JobRecord updated = adapters.store.updateStatus(created, placed);
        assertThat(updated.status()).isEqualTo(placed);
        assertThat(updated.version()).isNotEqualTo(created.version());
        // read-your-writes: the very next read sees the update, whatever the informer's lag
        assertThat(adapters.store.find(created.id()))
                .get()
                .extracting(JobRecord::status)
                .isEqualTo(placed);

        assertThatThrownBy(() -> adapters.store.updateStatus(created, JobStatus.pending("stale writer")))
                .isInstanceOf(StaleRecordException.class);

        adapters.store.create(AdapterFixture.wholeGpuRecord("team-b", "eval", 1));
        assertThat(adapters.store.list("team-a")).extracting(r -> r.id().name()).containsExactly("train-1");
        assertThat(adapters.store.listAll()).extracting(r -> r.id().team()).containsExactly("team-a", "team-b");

        assertThat(adapters.store.delete(created.id())).isTrue();
        assertThat(adapters.store.find(created.id())).isEmpty();
        assertThat(adapters.store.delete(created.id())).isFalse();
        assertThatThrownBy(() -> adapters.store.updateStatus(updated, placed)).isInstanceOf(StaleRecordException.class);
    }

    @Test
    void aRecordIsCreatedWithItsFirstDecisionAndAStatusWriteKeepsWhatTheServerStored() throws Exception {
        JobStatus placed = JobStatus.placed(
                "node-x",
                List.of(new GpuBinding(3, null, 1)),
                QuotaState.OVER_QUOTA,
                Instant.parse("2024-05-01T10:00:00Z"));

        JobRecord created = adapters.store.create(
                AdapterFixture.wholeGpuRecord("team-a", "at-once", 1).withStatus(placed));

        ClusterFacts cluster = new ClusterFacts(plane.apiClient(), namespace.name());
        JsonObject stored = cluster.gpuJobs().get(0).getRaw();
        assertThat(created.status()).isEqualTo(placed);
        assertThat(stored.getAsJsonObject("status").get("node").getAsString())
                .as("one write")
                .isEqualTo("node-x");
        assertThat(stored.getAsJsonObject("status").get("quotaState").getAsString())
                .isEqualTo("OverQuota");

        adapters.store.updateStatus(created, created.status().withPhase(JobPhase.RUNNING, null));

        JsonObject after = cluster.gpuJobs().get(0).getRaw();
        assertThat(after.getAsJsonObject("status").get("phase").getAsString()).isEqualTo("Running");
        assertThat(after.get("spec")).as("the spec as written").isEqualTo(stored.get("spec"));
        assertThat(after.getAsJsonObject("metadata").get("labels"))
                .isEqualTo(stored.getAsJsonObject("metadata").get("labels"));
        assertThat(after.getAsJsonObject("metadata").get("annotations"))
                .isEqualTo(stored.getAsJsonObject("metadata").get("annotations"));
    }

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

    @Test
    void gatewayCreatesThePinnedJobOnceAndTheRealSchedulerBindsItThere() throws Exception {
        FakeGpuNode target = nodes.create(FakeGpuNodeSpec.of("gw", 8, 81920, "NVIDIA-H100-80GB-HBM3"));
        nodes.create(FakeGpuNodeSpec.of("gw-other", 8, 81920, "NVIDIA-H100-80GB-HBM3"));
        Await.until(
                "the observer to list " + target.name(),
                () -> adapters.observer.node(target.name()).orElse(null));
        JobRecord record = adapters.store.create(AdapterFixture.wholeGpuRecord("team-a", "pinned", 3));
        PlacedJob placement = new PlacedJob(
                record.spec(), target.name(), List.of(0, 1, 2), 1000, QuotaState.OVER_QUOTA, Instant.now());
        List<GpuBinding> gpus =
                List.of(new GpuBinding(0, null, 1), new GpuBinding(1, null, 1), new GpuBinding(2, null, 1));

        adapters.gateway.deploy(record, placement, gpus);
        V1Pod pod = awaitBoundPod(record);

        assertThat(pod.getSpec().getNodeName()).isEqualTo(target.name());
        assertThat(pod.getMetadata().getLabels())
                .containsEntry("quotient.io/team", "team-a")
                .containsEntry("quotient.io/job", "pinned")
                .containsEntry("quotient.io/quota-state", "OverQuota");
        assertThat(pod.getSpec()
                        .getContainers()
                        .get(0)
                        .getResources()
                        .getLimits()
                        .get("nvidia.com/gpu")
                        .getNumber())
                .isEqualByComparingTo("3");
        V1Job job = readJob(record);
        adapters.gateway.deploy(record, placement, gpus);
        adapters.gateway.awaitQueuedWrites();
        assertThat(readJob(record).getMetadata().getUid())
                .isEqualTo(job.getMetadata().getUid());
        assertThat(job.getMetadata().getOwnerReferences())
                .singleElement()
                .satisfies(o -> assertThat(o.getKind()).isEqualTo("GpuJob"));
        Await.until(
                "the observer to see the workload run",
                () -> adapters.observer.workload(record.id()),
                phase -> phase == WorkloadPhase.RUNNING);

        adapters.gateway.stop(record.id(), Duration.ofSeconds(30));

        Await.until(
                "the Job and its pods to be gone",
                () -> podsOf(record).getItems().size()
                        + new BatchV1Api(plane.apiClient())
                                .listNamespacedJob(namespace.name())
                                .execute()
                                .getItems()
                                .size(),
                count -> count == 0);
        Await.until(
                "the observer to see no workload",
                () -> adapters.observer.workload(record.id()),
                phase -> phase == WorkloadPhase.ABSENT);
    }

    @Test
    void gatewayReplacesAWorkloadRenderedForAnotherPlacement() throws Exception {
        FakeGpuNode first = nodes.create(FakeGpuNodeSpec.of("mv-a", 4, 81920, "NVIDIA-H100-80GB-HBM3"));
        FakeGpuNode second = nodes.create(FakeGpuNodeSpec.of("mv-b", 4, 81920, "NVIDIA-H100-80GB-HBM3"));
        JobRecord record = adapters.store.create(AdapterFixture.wholeGpuRecord("team-a", "moved", 1));
        List<GpuBinding> gpu = List.of(new GpuBinding(0, null, 1));

        adapters.gateway.deploy(
                record,
                new PlacedJob(record.spec(), first.name(), List.of(0), 1000, QuotaState.IN_QUOTA, Instant.now()),
                gpu);
        adapters.gateway.awaitQueuedWrites();
        String firstUid = readJob(record).getMetadata().getUid();
        adapters.gateway.deploy(
                record,
                new PlacedJob(record.spec(), second.name(), List.of(0), 1000, QuotaState.IN_QUOTA, Instant.now()),
                gpu);
        adapters.gateway.awaitQueuedWrites();

        V1Job replaced = readJob(record);
        assertThat(replaced.getMetadata().getUid()).isNotEqualTo(firstUid);
        Await.until(
                "a pod of the new Job bound to " + second.name(),
                () -> podsOf(record).getItems().stream()
                        .filter(p -> second.name().equals(p.getSpec().getNodeName()))
                        .findFirst()
                        .orElse(null));
    }

    @Test
    void reservationPodHoldsTheGpuAndReportsTheUuidTheEnforcerWrites() throws Exception {
        FakeGpuNode node = nodes.create(FakeGpuNodeSpec.of("resv", 2, 81920, "NVIDIA-H100-80GB-HBM3"));
        GpuSlot slot = new GpuSlot(node.name(), 1);

        assertThat(adapters.gateway.ensureReservation(slot)).isEmpty();
        assertThat(adapters.gateway.ensureReservation(slot)).isEmpty(); // idempotent: one pod
        String podName = KubernetesNames.ofReservation(slot);
        V1Pod pod = Await.until(
                "the reservation pod to run",
                () -> core.readNamespacedPod(podName, namespace.name()).execute(),
                p -> "Running".equals(p.getStatus().getPhase()));
        assertThat(pod.getSpec().getNodeName()).isEqualTo(node.name());

        // the fake kubelet plays the device plugin and the node enforcer: it annotates the GPU it gave the pod
        String uuid = Await.until(
                "the enforcer to report the reserved GPU",
                () -> adapters.gateway.ensureReservation(slot),
                reported -> !reported.isEmpty());
        assertThat(node.gpuUuids()).contains(uuid);
        assertThat(adapters.observer.reservations()).containsEntry(slot, uuid);

        adapters.gateway.releaseReservation(slot);
        Await.until("the reservation to be gone", () -> adapters.observer.reservations(), r -> !r.containsKey(slot));
        adapters.gateway.releaseReservation(slot); // nothing left: no error
    }

    @Test
    void fractionalJobIsBoundToTheReservedGpuUuid() throws Exception {
        FakeGpuNode node = nodes.create(FakeGpuNodeSpec.of("frac", 2, 81920, "NVIDIA-H100-80GB-HBM3"));
        Await.until(
                "the observer to list " + node.name(),
                () -> adapters.observer.node(node.name()).orElse(null));
        JobRecord record = adapters.store.create(AdapterFixture.fractionRecord("team-a", "small", 0.25));
        String uuid = node.gpuUuids().get(0);

        adapters.gateway.deploy(
                record,
                new PlacedJob(record.spec(), node.name(), List.of(0), 250, QuotaState.IN_QUOTA, Instant.now()),
                List.of(new GpuBinding(0, uuid, 0.25)));

        V1Pod pod = awaitBoundPod(record);
        var env = pod.getSpec().getContainers().get(0).getEnv();
        assertThat(env).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("NVIDIA_VISIBLE_DEVICES");
            assertThat(e.getValue()).isEqualTo(uuid);
        });
        assertThat(env).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("GPU_MEMORY_LIMIT");
            assertThat(e.getValue()).isEqualTo(Long.toString(81920L * 1024 * 1024 / 4));
        });
        assertThat(pod.getMetadata().getAnnotations()).containsEntry("gpu-fraction", "0.25");
        assertThat(pod.getSpec().getContainers().get(0).getResources().getLimits())
                .doesNotContainKey("nvidia.com/gpu");
    }

    @Test
    void eventsAreRecordedOnTheGpuJob() throws Exception {
        JobRecord record = adapters.store.create(AdapterFixture.wholeGpuRecord("team-a", "evented", 1));

        adapters.gateway.recordEvent(record.id(), "Preempted", "Preempted by team-b reclaiming its guarantee");

        CoreV1Event event = Await.until(
                "the event",
                () -> core.listNamespacedEvent(namespace.name()).execute().getItems().stream()
                        .filter(e -> "Preempted".equals(e.getReason()))
                        .findFirst()
                        .orElse(null));
        assertThat(event.getInvolvedObject().getKind()).isEqualTo("GpuJob");
        assertThat(event.getInvolvedObject().getName()).isEqualTo(KubernetesNames.ofJob(record.id()));
        assertThat(event.getInvolvedObject().getUid()).isNotBlank();
        assertThat(event.getType()).isEqualTo("Warning");
        assertThat(event.getMessage()).isEqualTo("Preempted by team-b reclaiming its guarantee");
    }

    @Test
    void teamsComeFromTheConfigMapAndAnInvalidEditKeepsTheLastGoodOnes() throws Exception {
        ConfigMapTeamsSource source =
                new ConfigMapTeamsSource(core, namespace.name(), Duration.ZERO, Clock.systemUTC());
        assertThat(source.teams()).as("no ConfigMap yet: no teams").isEmpty();

        V1ConfigMap map = new V1ConfigMap()
                .metadata(new V1ObjectMeta().name(ConfigMapTeamsSource.CONFIG_MAP))
                .data(Map.of(
                        ConfigMapTeamsSource.KEY,
                        "teams:\n  - name: team-a\n    guaranteedGpus: 20\n" + "    maxGpus: 30\n"));
        core.createNamespacedConfigMap(namespace.name(), map).execute();
        assertThat(source.teams()).containsOnlyKeys("team-a");
        assertThat(source.teams().get("team-a").guaranteedMilli()).isEqualTo(20_000);
        assertThat(source.teams().get("team-a").maxMilli()).isEqualTo(30_000);

        map.setData(Map.of(ConfigMapTeamsSource.KEY, "teams:\n  - name: team-a\n    guaranteedGpus: lots\n"));
        core.replaceNamespacedConfigMap(ConfigMapTeamsSource.CONFIG_MAP, namespace.name(), map)
                .execute();
        assertThat(source.teams().get("team-a").guaranteedMilli())
                .as("the invalid edit is refused")
                .isEqualTo(20_000);

        map.setData(Map.of(
                ConfigMapTeamsSource.KEY,
                "teams:\n  - name: team-a\n    guaranteedGpus: 8\n" + "  - name: team-b\n    guaranteedGpus: 4\n"));
        core.replaceNamespacedConfigMap(ConfigMapTeamsSource.CONFIG_MAP, namespace.name(), map)
                .execute();
        assertThat(source.teams()).containsOnlyKeys("team-a", "team-b");
        assertThat(source.teams().get("team-a").guaranteedMilli()).isEqualTo(8_000);
    }

    private V1Pod awaitBoundPod(JobRecord record) {
        return Await.until(
                "a pod of job " + record.id() + " bound by the scheduler",
                () -> podsOf(record).getItems().stream()
                        .filter(p -> p.getSpec().getNodeName() != null)
                        .findFirst()
                        .orElse(null));
    }

    private V1PodList podsOf(JobRecord record) throws ApiException {
        return core.listNamespacedPod(namespace.name())
                .labelSelector("quotient.io/job=" + record.id().name())
                .execute();
    }

    private V1Job readJob(JobRecord record) {
        try {
            return new BatchV1Api(plane.apiClient())
                    .readNamespacedJob(KubernetesNames.ofWorkload(record.id()), namespace.name())
                    .execute();
        } catch (ApiException e) {
            throw new AssertionError("reading the Job of " + record.id() + ": HTTP " + e.getCode(), e);
        }
    }
}
