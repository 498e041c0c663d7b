package io.quotient.it.soak;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.it.deploy.ForeignWorkloads;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The soak's Kubeflow operations: objects created directly through the API server in a team's own namespace, as
 * {@code kubectl apply} (or the Kubeflow UI) would — a PyTorchJob, a TrainJob (both suspended by the workload webhook
 * and adopted by the leader, which records their GpuJob owned by the workload) and a notebook-like bare pod with the
 * Run:ai annotation {@code gpu-fraction: "0.5"} (decided at admission: admitted pinned to a shared GPU, or refused
 * while it waits; the harness creates a refused pod again every {@link #RETRY_MS} ms, and one deleted by Quotient
 * (preempted, its node removed) again once it is gone, as a notebook's StatefulSet controller does) — and their
 * deletion by their owner (the workload deleted: its GpuJob goes
 * with it through the garbage collector; the pod deleted: its job ends). Every call goes to the history with its
 * answer: 201, the API server's refusal (the webhook's failure policy is Fail, so a create while no replica answers
 * is refused), or -1 when no answer came.
 */
final class KubeflowOperations {

    static final Set<String> WORKLOAD_KINDS = Set.of("pytorchjob", "trainjob");
    static final String NOTEBOOK = "notebook";
    static final String RUNTIME = "soak-torch";
    private static final long RETRY_MS = 2000;
    /** Marks the soak's notebook pods, so that those Quotient deleted can be found and created again. */
    private static final String NOTEBOOK_LABEL = "soak.quotient.test/notebook";

    private record Held(String team, String name, long lastTry) {}

    private record Created(String kind, String name) {}

    private final History history;
    private final Map<String, String> namespaceOf;
    private final DynamicKubernetesApi pytorchJobs;
    private final DynamicKubernetesApi trainJobs;
    private final CoreV1Api core;
    private final Map<String, List<Created>> created = new HashMap<>();
    private final List<Held> held = new ArrayList<>();
    private long lastLook;
    private int count;

    /** @param namespaceOf each team's own namespace (opted in to the workload webhooks) */
    KubeflowOperations(History history, ApiClient client, Map<String, String> namespaceOf) {
        this.history = history;
        this.namespaceOf = Map.copyOf(namespaceOf);
        this.pytorchJobs = new DynamicKubernetesApi("kubeflow.org", "v1", "pytorchjobs", client);
        this.trainJobs = new DynamicKubernetesApi("trainer.kubeflow.org", "v1alpha1", "trainjobs", client);
        this.core = new CoreV1Api(client);
        namespaceOf.keySet().forEach(team -> created.put(team, new ArrayList<>()));
    }

    /** The ClusterTrainingRuntime the soak's TrainJobs name (the fake trainer builds their pods from it). */
    static void installRuntime(ApiClient client) {
        KubernetesApiResponse<DynamicKubernetesObject> answer = new DynamicKubernetesApi(
                        "trainer.kubeflow.org", "v1alpha1", "clustertrainingruntimes", client)
                .create(new DynamicKubernetesObject(ForeignWorkloads.clusterTrainingRuntime(RUNTIME)));
        if (!answer.isSuccess() && answer.getHttpStatusCode() != 409) {
            throw new IllegalStateException("creating the ClusterTrainingRuntime " + RUNTIME + " failed: HTTP "
                    + answer.getHttpStatusCode() + " " + answer.getStatus());
        }
    }

    boolean has(String team) {
        return !created.getOrDefault(team, List.of()).isEmpty();
    }

    String pyTorchJob(String team, int replicas, int gpus) {
        String name = "pt" + (++count);
        JsonObject job = ForeignWorkloads.pyTorchJob(namespaceOf.get(team), name, replicas, gpus);
        return createWorkload(
                team,
                "pytorchjob",
                name,
                replicas + "x" + gpus,
                () -> pytorchJobs.create(new DynamicKubernetesObject(job)));
    }

    String trainJob(String team, int nodes, int gpus) {
        String name = "tj" + (++count);
        JsonObject job = ForeignWorkloads.trainJob(namespaceOf.get(team), name, RUNTIME, nodes, gpus);
        return createWorkload(
                team, "trainjob", name, nodes + "x" + gpus, () -> trainJobs.create(new DynamicKubernetesObject(job)));
    }

    synchronized String notebook(String team) {
        String name = "nb" + (++count);
        int status = createPod(team, name, "deploy");
        if (status == 201) {
            created.get(team).add(new Created(NOTEBOOK, name));
        } else {
            held.add(new Held(team, name, history.now()));
        }
        return "deploy";
    }

    /**
     * Creates again, as a notebook's StatefulSet controller would, each notebook pod refused at admission a while
     * ago, and each admitted one that is gone though its owner did not delete it (Quotient deleted it: preempted, or
     * its node removed).
     */
    synchronized void retryHeld() {
        if (history.now() - lastLook >= RETRY_MS) {
            lastLook = history.now();
            lostNotebooks();
        }
        List<Held> due = held.stream()
                .filter(pod -> history.now() - pod.lastTry() >= RETRY_MS)
                .toList();
        held.removeAll(due);
        for (Held pod : due) {
            int status = createPod(pod.team(), pod.name(), "admit-retry");
            if (status == 201 || status == 409) {
                created.get(pod.team()).add(new Created(NOTEBOOK, pod.name()));
            } else {
                held.add(new Held(pod.team(), pod.name(), history.now()));
            }
        }
    }

    /** Admitted notebooks whose pod is gone (a terminating one still counts, as for a StatefulSet) go back to held. */
    private void lostNotebooks() {
        Set<String> present;
        try {
            present =
                    core.listPodForAllNamespaces().labelSelector(NOTEBOOK_LABEL + "=true").execute().getItems().stream()
                            .map(p -> p.getMetadata().getNamespace() + "/"
                                    + p.getMetadata().getName())
                            .collect(Collectors.toSet());
        } catch (ApiException | RuntimeException e) {
            return; // the API server is away: next time
        }
        created.forEach((team, objects) -> {
            for (Iterator<Created> it = objects.iterator(); it.hasNext(); ) {
                Created object = it.next();
                if (NOTEBOOK.equals(object.kind()) && !present.contains(namespaceOf.get(team) + "/" + object.name())) {
                    it.remove();
                    held.add(new Held(team, object.name(), 0));
                }
            }
        });
    }

    /** The owner deletes one of the team's objects, chosen by {@code which} (a draw of the soak's random stream). */
    synchronized String delete(String team, int which) {
        List<Created> mine = created.get(team);
        Created object = mine.remove(Math.floorMod(which, mine.size()));
        JsonObject entry = history.entry("op");
        entry.addProperty("op", "delete");
        entry.addProperty("team", team);
        entry.addProperty("job", object.name());
        entry.addProperty("kind", object.kind());
        history.write(entry); // the request counts from when it is sent
        String namespace = namespaceOf.get(team);
        int status;
        try {
            status = switch (object.kind()) {
                case "pytorchjob" ->
                    pytorchJobs.delete(namespace, object.name()).getHttpStatusCode();
                case "trainjob" -> trainJobs.delete(namespace, object.name()).getHttpStatusCode();
                default -> {
                    core.deleteNamespacedPod(object.name(), namespace).execute();
                    yield 200;
                }
            };
        } catch (ApiException e) {
            status = e.getCode() == 0 ? -1 : e.getCode();
        } catch (RuntimeException e) {
            status = -1;
        }
        JsonObject answered = history.entry("op-answer");
        answered.addProperty("op", "delete");
        answered.addProperty("team", team);
        answered.addProperty("job", object.name());
        answered.addProperty("status", status);
        history.write(answered);
        return "delete";
    }

    private interface Create {
        KubernetesApiResponse<DynamicKubernetesObject> call();
    }

    private String createWorkload(String team, String kind, String name, String shape, Create create) {
        int status;
        String message = null;
        try {
            KubernetesApiResponse<DynamicKubernetesObject> answer = create.call();
            status = answer.isSuccess() ? 201 : answer.getHttpStatusCode(); // the client reports a create's 201 as 200
            message = answer.isSuccess() || answer.getStatus() == null
                    ? null
                    : answer.getStatus().getMessage();
        } catch (RuntimeException e) {
            status = -1; // no answer (the API server restarting): the object may or may not exist
            message = e.toString();
        }
        record(team, kind, name, "deploy", status, message, shape);
        if (status != 201 && status != -1) {
            return "deploy";
        }
        created.get(team).add(new Created(kind, name)); // one that may exist is deleted later like the others
        return "deploy";
    }

    private int createPod(String team, String name, String op) {
        V1Pod pod = new V1Pod()
                .apiVersion("v1")
                .kind("Pod")
                .metadata(new V1ObjectMeta()
                        .name(name)
                        .namespace(namespaceOf.get(team))
                        .annotations(Map.of("gpu-fraction", "0.5"))
                        .labels(Map.of(NOTEBOOK_LABEL, "true")))
                .spec(new V1PodSpec()
                        .overhead(null)
                        .containers(List.of(new V1Container()
                                .name("notebook")
                                .image("busybox:1.36")
                                .command(List.of("sleep", "3600")))));
        int status;
        String message = null;
        try {
            core.createNamespacedPod(namespaceOf.get(team), pod).execute();
            status = 201;
        } catch (ApiException e) {
            status = e.getCode() == 0 ? -1 : e.getCode();
            message = e.getResponseBody() == null ? e.getMessage() : e.getResponseBody();
        } catch (RuntimeException e) {
            status = -1;
            message = e.toString();
        }
        record(team, NOTEBOOK, name, op, status, message, "0.5");
        return status;
    }

    private void record(String team, String kind, String name, String op, int status, String message, String shape) {
        JsonObject entry = history.entry("op");
        entry.addProperty("op", op);
        entry.addProperty("team", team);
        entry.addProperty("job", name);
        entry.addProperty("kind", kind);
        entry.addProperty("shape", shape);
        entry.addProperty("replica", "api-server");
        entry.addProperty("status", status);
        if (message != null) {
            entry.addProperty("message", message.length() > 300 ? message.substring(0, 300) : message);
        }
        entry.addProperty("t", history.now());
        history.write(entry);
    }
}
