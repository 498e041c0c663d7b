package io.quotient.it.deploy;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.BatchV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.FakeKubelet;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** What is really in the cluster, read straight from the API server (never through the service). */
public final class ClusterFacts {

    private final CoreV1Api core;
    private final BatchV1Api batch;
    private final DynamicKubernetesApi gpuJobs;
    private final String namespace;
    private final List<String> teamNamespaces;

    public ClusterFacts(ApiClient client, String namespace) {
        this(client, namespace, List.of());
    }

    /**
     * @param teamNamespaces the teams' own namespaces, where adopted workloads and their GpuJobs live (the Jobs and
     *                       reservation pods stay in {@code namespace}, the service's)
     */
    public ClusterFacts(ApiClient client, String namespace, Collection<String> teamNamespaces) {
        this.core = new CoreV1Api(client);
        this.batch = new BatchV1Api(client);
        this.gpuJobs = new DynamicKubernetesApi("quotient.io", "v1alpha1", "gpujobs", client);
        this.namespace = namespace;
        this.teamNamespaces = List.copyOf(teamNamespaces);
    }

    List<DynamicKubernetesObject> gpuJobs() {
        List<DynamicKubernetesObject> all =
                new ArrayList<>(gpuJobs.list(namespace).getObject().getItems());
        teamNamespaces.forEach(
                other -> all.addAll(gpuJobs.list(other).getObject().getItems()));
        return all;
    }

    List<V1Job> jobs() throws ApiException {
        return batch.listNamespacedJob(namespace).execute().getItems();
    }

    /** Pods of one job's workload that are not being deleted. */
    List<V1Pod> livePodsOf(String team, String job) throws ApiException {
        String selector = "quotient.io/team=" + team + ",quotient.io/job=" + job;
        List<V1Pod> pods = teamNamespaces.isEmpty()
                ? core.listNamespacedPod(namespace)
                        .labelSelector(selector)
                        .execute()
                        .getItems()
                : core.listPodForAllNamespaces().labelSelector(selector).execute().getItems().stream()
                        .filter(p -> namespace.equals(p.getMetadata().getNamespace())
                                || teamNamespaces.contains(p.getMetadata().getNamespace()))
                        .toList();
        return pods.stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .toList();
    }

    /** Every pod in the namespace, terminating ones included. */
    List<V1Pod> pods() throws ApiException {
        return core.listNamespacedPod(namespace).execute().getItems();
    }

    /** Reservation pods that hold a GPU (not being deleted). */
    List<V1Pod> reservationPods() throws ApiException {
        return core
                .listNamespacedPod(namespace)
                .labelSelector("quotient.io/role=gpu-reservation")
                .execute()
                .getItems()
                .stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .toList();
    }

    /** Waits until the job's pod runs on a node (bound by kube-scheduler, started by the fake kubelet); returns it. */
    V1Pod awaitRunningPod(String team, String job) {
        return Await.until(
                "a running pod of job " + team + "/" + job,
                () -> livePodsOf(team, job).stream()
                        .filter(p -> "Running".equals(p.getStatus().getPhase()))
                        .findFirst()
                        .orElse(null));
    }

    /** The node kube-scheduler bound the job's pod to. */
    String boundNode(String team, String job) {
        return awaitRunningPod(team, job).getSpec().getNodeName();
    }

    /** Lets the job's running pods exit 0 (the fake kubelet's containers finish). */
    void finish(FakeKubelet kubelet, String team, String job) throws ApiException {
        for (V1Pod pod : livePodsOf(team, job)) {
            kubelet.succeed(namespace, pod.getMetadata().getName());
        }
    }

    String namespace() {
        return namespace;
    }
}
