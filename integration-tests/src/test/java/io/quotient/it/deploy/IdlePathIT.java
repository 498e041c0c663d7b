package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNode;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import io.quotient.it.kubeflow.FakeNotebookController;
import io.quotient.it.kubeflow.KubeflowCrds;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The idle policy's whole path on the real control plane (issue 34): the real node enforcer reads the fake
 * {@code libnvidia-ml} through its JNA binding and publishes each pod's counters in the node report; the service's
 * idle pass reads them there, warns the idle notebook, and once another team waits for GPUs only that notebook can
 * free, stops it the Kubeflow way ({@code kubeflow-resource-stopped}; the fake notebook controller scales it to zero);
 * the waiting job is placed on the freed GPU. Left alone, each for at least two idle passes past the point where it
 * could have been released: the idle notebook while nobody waits, a busy notebook and an idle training job (its team
 * watches notebooks only) while a job waits.
 *
 * <p>One 3-GPU node. Team {@code lab} (guarantee 3, so none of its jobs borrows and no quota reclaim is due) holds it
 * all: notebooks {@code idle} (0 %) and {@code busy} (80 %), admitted through the pod webhook, and the REST training
 * job {@code train} (0 %). Team {@code vision} (guarantee 0) then submits two 1-GPU jobs: one is placed on the idle
 * notebook's GPU, the other keeps waiting.
 */
@RealKubernetes
class IdlePathIT {

    /** The idle pass's interval and the enforcer's report period. */
    private static final Duration PASS = Duration.ofSeconds(2);

    private static final Duration AFTER = Duration.ofSeconds(12);
    private static final Duration LEFT_ALONE = PASS.multipliedBy(2).plusSeconds(1);
    /** A job's phases while it holds its GPUs and its pod runs (Running once the service saw the pod run). */
    private static final Set<String> RUNNING = Set.of("Placed", "Running");

    private static final String KEPT = "kept: no waiting job would be placed on the GPUs it holds";

    @Test
    void anIdleNotebookIsStoppedForAnotherTeamsWaitingJobAndNothingElseIs(
            ControlPlane plane, TestNamespace service, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        FakeGpuNode node = nodes.create(FakeGpuNodeSpec.of("idle", 3, 81920, "NVIDIA-A100-SXM4-80GB"));
        kubelet.stopReporting(node.name()); // the real enforcer publishes this node's report
        ApiClient client = plane.apiClient();
        QuotientManifests.installCrd(client);
        KubeflowCrds.install(client);
        WebhookTls tls = WebhookTls.make(dir);
        CoreV1Api core = new CoreV1Api(client);
        DynamicKubernetesApi notebooks = new DynamicKubernetesApi("kubeflow.org", "v1", "notebooks", client);
        DynamicKubernetesApi statefulSets = new DynamicKubernetesApi("apps", "v1", "statefulsets", client);
        try (TestNamespace lab = TestNamespace.create(client, plane.serverMinorVersion(), "lab");
                FakeNotebookController controller = FakeNotebookController.start(client, lab.name());
                NodeEnforcerProcess enforcer = NodeEnforcerProcess.start(plane, node, dir.resolve("enforcer"), "2s");
                IdleConditions conditions = IdleConditions.watch(client);
                WorkloadWebhooks webhooks = WorkloadWebhooks.register(client, tls.port(), tls.caBundle())) {
            String ns = lab.name();
            WorkloadWebhooks.optIn(client, ns);
            Path teams = TeamsFile.writeText(dir.resolve("teams.yaml"), teamsFile(service.name(), ns));
            String[] args = Stream.concat(Stream.of(tls.args()), Stream.of("--quotient.idle.interval=2s"))
                    .toArray(String[]::new);
            try (QuotientService quotient = QuotientService.inProcess(plane, service.name(), teams, args)) {
                QuotientApi api = quotient.api();
                Notebooks.awaitPodWebhook(core, ns);
                for (String name : List.of("idle", "busy")) {
                    Notebooks.create(
                            notebooks,
                            ForeignWorkloads.notebook(ns, name, Map.of(), Notebooks.json(Notebooks.container(1))));
                }
                assertThat(api.deploy("lab", Requests.wholeGpus("train", 1)).status())
                        .isEqualTo(201);
                ClusterFacts cluster = new ClusterFacts(client, service.name(), List.of(ns));
                // each pod's process on its GPU as NVML lists it: the notebook left open and the training job that
                // waits for data at 0 %, the notebook someone works in at 80 %
                enforcer.runOnGpu(Notebooks.awaitRunning(core, ns, "idle-0"), gpuOf(api, "idle-0"), 0);
                enforcer.runOnGpu(Notebooks.awaitRunning(core, ns, "busy-0"), gpuOf(api, "busy-0"), 80);
                enforcer.runOnGpu(cluster.awaitRunningPod("lab", "train"), gpuOf(api, "train"), 0);

                // nobody waits: the idle notebook is warned, then kept past its limit
                JsonObject warned = awaitWarning(api, enforcer);
                assertThat(text(warned, "message"))
                        .startsWith("notebook idle-0 of team lab (1 GPU) has used its GPUs at 0.0 % (threshold 5.0 %)");
                Instant since = Instant.parse(text(warned, "since")).truncatedTo(ChronoUnit.SECONDS);
                Await.until(
                        "the idle notebook past its limit to be kept (nobody waits)",
                        () -> idle(api, "idle-0"),
                        i -> i != null && text(i, "message").contains(KEPT));
                Duration untilLeftAlone =
                        Duration.between(Instant.now(), since.plus(AFTER).plus(LEFT_ALONE));
                Await.during(
                        "the idle notebook to keep running while nobody waits",
                        untilLeftAlone.compareTo(LEFT_ALONE) > 0 ? untilLeftAlone : LEFT_ALONE,
                        () -> look(api, core, notebooks, ns, "idle-0"),
                        l -> l.runs() && "IdleWarning".equals(l.idleReason()));
                assertUntouched(api, core, notebooks, ns, Duration.ZERO);

                // vision waits for GPUs only the idle notebook can free
                assertThat(api.deploy("vision", Requests.wholeGpus("wait-1", 1)).status())
                        .as("accepted, waiting")
                        .isEqualTo(202);
                assertThat(api.deploy("vision", Requests.wholeGpus("wait-2", 1)).status())
                        .as("accepted, waiting")
                        .isEqualTo(202);
                Await.until(
                        "the idle notebook to be stopped through its Kubeflow annotation",
                        () -> stoppedAt(notebooks, ns, "idle"),
                        Optional::isPresent);
                Await.until(
                        "the notebook controller to scale it to zero",
                        () -> Notebooks.replicas(statefulSets, ns, "idle"),
                        r -> r == 0);
                Await.until("its pod to go", () -> Notebooks.pod(core, ns, "idle-0"), Optional::isEmpty);
                String placed = Await.until(
                                "one of vision's jobs to be placed on the freed GPU",
                                () -> placedOf(api, "wait-1", "wait-2"),
                                Optional::isPresent)
                        .get();
                assertThat(api.job("vision", placed).text("node")).isEqualTo(node.name());
                assertThat(notebooks.get(ns, "idle").isSuccess())
                        .as("the Notebook is kept")
                        .isTrue();

                String released = "notebook idle-0 of team lab (1 GPU) has used its GPUs at 0.0 % (threshold 5.0 %)"
                        + " since " + since + ": idle for ";
                String why = ", past its team's limit of 12 s; its GPUs are released for job " + placed
                        + " of team vision, which waits for them";
                List<IdleConditions.Seen> stored = conditions.of("lab", "idle-0");
                assertThat(stored)
                        .as("the GpuJob's Idle condition: warned, kept, released")
                        .extracting(IdleConditions.Seen::reason)
                        .containsSubsequence("IdleWarning", "IdleReleased")
                        .endsWith("IdleReleased");
                assertThat(stored)
                        .anySatisfy(c -> assertThat(c.message()).contains(KEPT))
                        .last()
                        .satisfies(c ->
                                assertThat(c.message()).startsWith(released).endsWith(why));
                CoreV1Event event = Await.until(
                                "the IdleReleased Event",
                                () -> event(core, "IdleReleased", "notebook idle-0 of team lab"),
                                Optional::isPresent)
                        .get();
                assertThat(event.getMessage()).startsWith(released).endsWith(why + ": its Notebook is stopped");
                assertThat(event(core, "IdleWarning", "notebook idle-0 of team lab"))
                        .as("the warning came first, as an Event too")
                        .isPresent();

                // a job still waits: the busy notebook and the idle training job stay, for two passes and more
                String other = placed.equals("wait-1") ? "wait-2" : "wait-1";
                assertUntouched(api, core, notebooks, ns, LEFT_ALONE);
                assertThat(api.job("vision", other).text("phase")).isEqualTo("Pending");
                assertThat(conditions.of("lab", "busy-0")).as("never warned").isEmpty();
                assertThat(conditions.of("lab", "train")).as("not watched").isEmpty();
                assertThat(controller.lastFailure()).isNull();
                assertThat(enforcer.alive()).as("the enforcer ran throughout").isTrue();
            }
        }
    }

    /** The idle notebook's first warning: the path from the fake NVML through the enforcer's report works. */
    private static JsonObject awaitWarning(QuotientApi api, NodeEnforcerProcess enforcer) {
        try {
            return Await.until(
                    "the idle notebook's warning, from the enforcer's figures",
                    Duration.ofSeconds(90),
                    () -> idle(api, "idle-0"),
                    i -> i != null && "IdleWarning".equals(text(i, "reason")));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the end of the enforcer's log:\n" + enforcer.log(), e);
        }
    }

    /** The busy notebook and the idle training job run, placed, never warned, over {@code duration}. */
    private static void assertUntouched(
            QuotientApi api, CoreV1Api core, DynamicKubernetesApi notebooks, String ns, Duration duration) {
        Await.during(
                "the busy notebook to run, never warned",
                duration,
                () -> look(api, core, notebooks, ns, "busy-0"),
                l -> l.runs() && l.idleReason() == null);
        Await.during(
                "the idle training job to run, never warned (its team watches notebooks only)",
                duration,
                () -> api.job("lab", "train"),
                job -> RUNNING.contains(job.text("phase")) && job.text("idle") == null);
    }

    private static String teamsFile(String shared, String labNamespace) {
        return "teams:\n"
                + "  - name: lab\n"
                + "    guaranteedGpus: 3\n"
                + "    namespaces: [" + shared + ", " + labNamespace + "]\n"
                + "    idle: {kinds: [notebook], warnAfter: 6s, after: " + AFTER.toSeconds() + "s, threshold: 5%,"
                + " onlyWhenOthersWait: true, action: stop}\n"
                + "  - name: vision\n"
                + "    guaranteedGpus: 0\n"
                + "    namespaces: [" + shared + "]\n";
    }

    /** A notebook's pod and job as a test sees them. */
    private record Look(String podPhase, boolean stopped, String jobPhase, String idleReason) {
        boolean runs() {
            return "Running".equals(podPhase) && !stopped && RUNNING.contains(jobPhase);
        }
    }

    private static Look look(QuotientApi api, CoreV1Api core, DynamicKubernetesApi notebooks, String ns, String pod)
            throws ApiException {
        Optional<V1Pod> found = Notebooks.pod(core, ns, pod);
        QuotientApi.Answer job = api.job("lab", pod);
        JsonObject idle = job.status() == 200 ? idle(api, pod) : null;
        return new Look(
                found.map(p -> p.getStatus() == null ? null : p.getStatus().getPhase())
                        .orElse("gone"),
                stoppedAt(notebooks, ns, pod.replace("-0", "")).isPresent(),
                job.status() == 200 ? job.text("phase") : "HTTP " + job.status(),
                idle == null ? null : text(idle, "reason"));
    }

    private static int gpuOf(QuotientApi api, String job) {
        QuotientApi.Answer answer = api.job("lab", job);
        return answer.object()
                .getAsJsonArray("gpus")
                .get(0)
                .getAsJsonObject()
                .get("index")
                .getAsInt();
    }

    private static JsonObject idle(QuotientApi api, String job) {
        JsonElement idle = api.job("lab", job).object().get("idle");
        return idle == null || idle.isJsonNull() ? null : idle.getAsJsonObject();
    }

    private static String text(JsonObject object, String field) {
        JsonElement value = object.get(field);
        return value == null || value.isJsonNull() ? null : value.getAsString();
    }

    private static Optional<String> stoppedAt(DynamicKubernetesApi notebooks, String ns, String name) {
        KubernetesApiResponse<DynamicKubernetesObject> notebook = notebooks.get(ns, name);
        if (!notebook.isSuccess()) {
            return Optional.empty();
        }
        Map<String, String> annotations = notebook.getObject().getMetadata().getAnnotations();
        return Optional.ofNullable(
                annotations == null ? null : annotations.get(FakeNotebookController.STOPPED_ANNOTATION));
    }

    private static Optional<String> placedOf(QuotientApi api, String... jobs) {
        for (String job : jobs) {
            String phase = api.job("vision", job).text("phase");
            if (RUNNING.contains(phase)) {
                return Optional.of(job);
            }
        }
        return Optional.empty();
    }

    private static Optional<CoreV1Event> event(CoreV1Api core, String reason, String about) throws ApiException {
        return core.listEventForAllNamespaces().fieldSelector("reason=" + reason).execute().getItems().stream()
                .filter(e -> e.getMessage() != null && e.getMessage().startsWith(about))
                .findFirst();
    }
}
