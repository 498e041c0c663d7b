package io.quotient.it.soak;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.quotient.it.deploy.ClusterFacts;
import io.quotient.it.deploy.ClusterInvariants;
import io.quotient.it.deploy.QuotientManifests;
import io.quotient.it.deploy.QuotientService;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.kubeflow.FakeTrainingOperator;
import io.quotient.it.kubeflow.KubeflowCrds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One soak run: two replicas (reaching the API server through the loopback proxy, serving the workload webhooks of
 * the teams' own namespaces, {@link SoakAdmission}) on the test plane, a seeded
 * stream of operations interleaved with faults for {@link SoakSettings#chaos()}, then faults stop, capacity is
 * restored and the reclaim deadline runs; the API server is observed throughout and every observation checked.
 */
final class SoakRun {

    private final SoakSettings settings;
    private final ControlPlane plane;
    private final String namespace;
    private final FakeGpuNodes nodes;
    private final FakeKubelet kubelet;
    private final ApiClient client;
    private final AtomicInteger harnessErrors = new AtomicInteger();
    /** The plane restarts of this run (set once the history exists). */
    private PlaneOutages outages;

    SoakRun(SoakSettings settings, ControlPlane plane, String namespace, FakeGpuNodes nodes, FakeKubelet kubelet) {
        this.settings = settings;
        this.plane = plane;
        this.namespace = namespace;
        this.nodes = nodes;
        this.kubelet = kubelet;
        this.client = plane.apiClient();
    }

    /** Runs the soak; returns every violation and the figures (printed too), and where the history is. */
    Result run() throws Exception {
        QuotientManifests.installCrd(client);
        Path dir = settings.historyDir();
        HistoryChecker checker = new HistoryChecker();
        Path file = dir.resolve(
                "soak-" + settings.seed() + "-" + Instant.now().toString().replace(':', '-') + ".jsonl");
        List<String> teamNames = new ArrayList<>();
        Map<String, Long> guarantees = new LinkedHashMap<>();
        long share = Math.max(500, settings.capacityMilli() * 6 / 10 / settings.teams() / 500 * 500);
        for (int i = 1; i <= settings.teams(); i++) {
            teamNames.add("team-" + i);
            guarantees.put("team-" + i, share);
        }
        guarantees.put(Probes.TEAM, Probes.GUARANTEE_MILLI);

        KubeflowCrds.install(client);
        KubeflowOperations.installRuntime(client);
        try (History history = new History(file, checker);
                SoakAdmission admission = SoakAdmission.open(plane, teamNames, 2, dir.resolve("admission"));
                LoopbackProxy proxy = new LoopbackProxy(apiServerPort(plane.kubeconfig()));
                FakeTrainingOperator trainingOperator = FakeTrainingOperator.start(plane.newApiClient())) {
            TeamsConfig teams = new TeamsConfig(
                    dir.resolve("teams-" + settings.seed() + ".yaml"), namespace, guarantees, admission.namespaceOf());
            history.write(start(history, guarantees));
            outages = new PlaneOutages(history);
            Path kubeconfig = proxiedKubeconfig(plane.kubeconfig(), proxy.port(), dir.resolve("kubeconfig-proxy.json"));
            List<Replica> replicas = List.of(
                    replica("replica-1", teams, kubeconfig, dir, admission.replicaArgs(0)),
                    replica("replica-2", teams, kubeconfig, dir, admission.replicaArgs(1)));
            admission.register(replicas);
            Operations operations = new Operations(
                    settings,
                    history,
                    replicas,
                    teams,
                    teamNames,
                    nodes,
                    kubelet,
                    client,
                    namespace,
                    new KubeflowOperations(history, client, admission.namespaceOf()));
            operations.addInitialNodes();
            ClusterReader reader = new ClusterReader(
                    client, namespace, admission.teamOf(), Operations.NODE_PREFIX, Operations.GPU_MEMORY_MIB, history);
            AtomicBoolean observing = new AtomicBoolean(true);
            Thread observer = daemon("soak-observer", () -> observe(reader, history, observing));
            observer.start();
            try {
                replicas.forEach(Replica::start);
                chaos(history, replicas, proxy, operations);
                calm(history, replicas, operations, admission.namespaceOf().values());
            } finally {
                observing.set(false);
                observer.join(30_000);
                replicas.forEach(Replica::close);
            }
            history.write(reader.read().toJson());
            JsonObject end = history.entry("end");
            end.addProperty("harnessErrors", harnessErrors.get());
            history.write(end);
        }
        HistoryChecker.Verdict verdict = checker.finish();
        System.out.print(verdict.figures().describe());
        System.out.println(
                "[soak] seed " + settings.seed() + ": " + verdict.violations().size() + " violation(s);" + " history "
                        + file.toAbsolutePath() + " (re-check: HistoryCheck " + file + ")");
        verdict.violations().forEach(v -> System.out.println("[soak] VIOLATION " + v));
        return new Result(verdict, file, harnessErrors.get());
    }

    /** A run's verdict, its history file, and how many of the harness's own calls failed. */
    record Result(HistoryChecker.Verdict verdict, Path history, int harnessErrors) {}

    private void chaos(History history, List<Replica> replicas, LoopbackProxy proxy, Operations operations)
            throws InterruptedException {
        long chaosEnd = history.now() + settings.chaos().toMillis();
        Random pauses = new Random(settings.seed() ^ 0x5eed);
        Thread operator = daemon("soak-operations", () -> {
            while (history.now() < chaosEnd) {
                try {
                    operations.next();
                } catch (Exception e) {
                    harnessError(history, "operation", e);
                }
                sleep((long) (-Math.log(1 - pauses.nextDouble())
                        * settings.operationGap().toMillis()));
            }
        });
        operator.start();
        Faults faults = new Faults(
                settings.seed(),
                history,
                replicas,
                proxy,
                new Probes(history, replicas, client, namespace),
                plane,
                namespace,
                outages);
        long gap = settings.faultGap().toMillis();
        while (history.now() + gap < chaosEnd) {
            Thread.sleep(gap / 2 + pauses.nextInt((int) (gap / 2) + 1));
            for (Replica replica : replicas) {
                replica.awaitRestarted(120_000);
            }
            faults.next();
        }
        operator.join(settings.chaos().toMillis() + 120_000);
    }

    /** Faults stop: capacity and replicas restored, then the reclaim deadline runs and the cluster must settle. */
    private void calm(History history, List<Replica> replicas, Operations operations, Collection<String> teamNamespaces)
            throws Exception {
        for (Replica replica : replicas) {
            replica.awaitRestarted(120_000);
        }
        operations.restoreCapacity();
        history.write(history.entry("calm"));
        long reclaimEnd = history.now()
                + settings.reclaimDeadline().toMillis()
                + 2 * settings.observeEvery().toMillis();
        while (history.now() < reclaimEnd) {
            operations.recreateNotebooks(); // their controller keeps trying, faults or not
            Thread.sleep(Math.min(1000, Math.max(1, reclaimEnd - history.now())));
        }
        ClusterFacts facts = new ClusterFacts(client, namespace, teamNamespaces);
        long deadline = history.now() + settings.settle().toMillis();
        List<String> violations = ClusterInvariants.violations(facts);
        while (!violations.isEmpty() && history.now() < deadline) {
            Thread.sleep(2000);
            violations = ClusterInvariants.violations(facts);
        }
        if (!violations.isEmpty()) {
            JsonObject entry = history.entry("final-invariants");
            JsonArray list = new JsonArray();
            violations.forEach(list::add);
            entry.add("violations", list);
            history.write(entry);
        }
    }

    private void observe(ClusterReader reader, History history, AtomicBoolean observing) {
        while (observing.get()) {
            try {
                history.write(reader.read().toJson());
            } catch (Exception e) {
                harnessError(history, "observation", e);
            }
            sleep(settings.observeEvery().toMillis());
        }
    }

    private void harnessError(History history, String what, Exception e) {
        boolean excused = outages != null && outages.explains(history.now());
        if (!excused) {
            harnessErrors.incrementAndGet();
        }
        JsonObject entry = history.entry(excused ? "harness-outage" : "harness-error");
        entry.addProperty("what", what);
        entry.addProperty("error", e.toString());
        history.write(entry);
    }

    private JsonObject start(History history, Map<String, Long> guarantees) {
        JsonObject start = history.entry("start");
        start.addProperty("seed", settings.seed());
        start.addProperty("settleMs", settings.settle().toMillis());
        start.addProperty("reclaimMs", settings.reclaimDeadline().toMillis());
        start.addProperty("settings", settings.toString());
        JsonObject teams = new JsonObject();
        guarantees.forEach(teams::addProperty);
        start.add("teams", teams);
        return start;
    }

    /** A replica on the shipped schedules (re-queue 5 s, reclaim 15 s), reaching the API server through the proxy. */
    private Replica replica(String name, TeamsConfig teams, Path kubeconfig, Path dir, String[] admissionArgs) {
        List<String> args = new ArrayList<>(List.of(
                "--quotient.kubeconfig=" + kubeconfig,
                "--quotient.schedules.requeue-interval=5s",
                "--quotient.schedules.reclaim-interval=15s"));
        args.addAll(List.of(admissionArgs));
        return new Replica(
                name,
                () -> QuotientService.process(
                        name, plane, namespace, teams.file(), dir.resolve("logs"), args.toArray(String[]::new)));
    }

    private static int apiServerPort(Path kubeconfig) throws IOException {
        return URI.create(server(JsonParser.parseString(Files.readString(kubeconfig))
                                .getAsJsonObject())
                        .get("server")
                        .getAsString())
                .getPort();
    }

    /** The plane's kubeconfig with its server moved to the proxy's port (same loopback address, same CA). */
    static Path proxiedKubeconfig(Path kubeconfig, int port, Path target) {
        try {
            JsonObject config =
                    JsonParser.parseString(Files.readString(kubeconfig)).getAsJsonObject();
            JsonObject cluster = server(config);
            URI server = URI.create(cluster.get("server").getAsString());
            if (!"127.0.0.1".equals(server.getHost()) && !"localhost".equals(server.getHost())) {
                throw new IllegalStateException("the soak's proxy needs an API server on the loopback address; the"
                        + " kubeconfig " + kubeconfig + " names " + server + " (run with -Dquotient.it.backend=local)");
            }
            cluster.addProperty("server", server.getScheme() + "://" + server.getHost() + ":" + port);
            Files.createDirectories(target.getParent());
            return Files.writeString(target, config.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the proxied kubeconfig " + target, e);
        }
    }

    private static JsonObject server(JsonObject config) {
        return config.getAsJsonArray("clusters").get(0).getAsJsonObject().getAsJsonObject("cluster");
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(Math.min(ms, 10_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
