package io.quotient.adapters.k8s.observation;

import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.adapters.k8s.KubernetesNames;
import io.quotient.adapters.k8s.TenantScope;
import io.quotient.adapters.k8s.workloads.ReservationPods;
import io.quotient.adapters.k8s.workloads.SurplusPods;
import io.quotient.adapters.k8s.workloads.WorkloadObject;
import io.quotient.adapters.k8s.workloads.WorkloadPhases;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.JobId;
import io.quotient.core.usage.PodCounterReading;
import io.quotient.deploy.port.ClusterObserver;
import io.quotient.deploy.port.GpuSlot;
import io.quotient.deploy.port.WorkloadPhase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The live cluster from the informer caches: GPU nodes (GPU-feature-discovery labels, allocatable, the node
 * enforcer's report), reservation pods with the GPU UUIDs reported on them, and the phases of job workloads (from
 * their Jobs, PyTorchJobs, TrainJobs and pods).
 * Reads never touch the network.
 */
public final class KubernetesClusterObserver implements ClusterObserver {

    private final ClusterInformers informers;
    private final TenantScope scope;
    private final Clock clock;
    private final Duration reportFreshness;
    /**
     * Each node's facts as parsed at its resourceVersion: every decision reads every node (twice, for the nodes
     * and for the fraction-ready set), and parsing labels, quantities and the enforcer's JSON report each time
     * was most of the snapshot's cost.
     */
    private final Map<String, ParsedNode> parsed = new ConcurrentHashMap<>();

    private final SurplusPods surplusPods = new SurplusPods();

    private record ParsedNode(String resourceVersion, Optional<NodeSpec> spec, Optional<GpuReport> report) {}

    /**
     * @param scope           workloads count only in the namespaces the service manages, for the team owning them
     * @param reportFreshness how recent the enforcer's report must be for a node to take new fractions
     */
    public KubernetesClusterObserver(
            ClusterInformers informers, TenantScope scope, Clock clock, Duration reportFreshness) {
        this.informers = informers;
        this.scope = scope;
        this.clock = clock;
        this.reportFreshness = reportFreshness;
    }

    @Override
    public List<NodeSpec> nodes() {
        List<NodeSpec> result = new ArrayList<>();
        Set<String> present = new HashSet<>();
        for (V1Node node : informers.nodes().getIndexer().list()) {
            present.add(node.getMetadata().getName());
            parse(node).spec().ifPresent(result::add);
        }
        parsed.keySet().retainAll(present); // forget deleted nodes
        result.sort(Comparator.comparing(NodeSpec::name));
        return result;
    }

    @Override
    public Optional<Set<String>> existingNodes() {
        if (!informers.nodes().hasSynced()) {
            return Optional.empty();
        }
        Set<String> names = new HashSet<>();
        informers
                .nodes()
                .getIndexer()
                .list()
                .forEach(node -> names.add(node.getMetadata().getName()));
        return names.isEmpty() ? Optional.empty() : Optional.of(names);
    }

    /** One schedulable GPU node by name. */
    public Optional<NodeSpec> node(String name) {
        V1Node node = informers.nodes().getIndexer().getByKey(name);
        return node == null ? Optional.empty() : parse(node).spec();
    }

    @Override
    public Set<String> fractionReadyNodes() {
        Instant now = clock.instant();
        Set<String> ready = new HashSet<>();
        for (V1Node node : informers.nodes().getIndexer().list()) {
            ParsedNode facts = parse(node);
            if (facts.spec().isPresent() && NodeFacts.fractionReady(facts.report(), now, reportFreshness)) {
                ready.add(node.getMetadata().getName());
            }
        }
        return ready;
    }

    private ParsedNode parse(V1Node node) {
        String name = node.getMetadata().getName();
        String version = node.getMetadata().getResourceVersion();
        ParsedNode cached = parsed.get(name);
        if (cached != null && version != null && version.equals(cached.resourceVersion())) {
            return cached;
        }
        ParsedNode fresh = new ParsedNode(version, NodeFacts.spec(node), NodeFacts.report(node));
        parsed.put(name, fresh);
        return fresh;
    }

    /**
     * The pod counters of every node's report, for the pods this service sees on that node as the workload of a job
     * in a namespace it manages (the same belief as {@link #workloads()}): a report cannot book usage on a job.
     */
    @Override
    public List<PodCounterReading> podUsage() {
        TenantScope.View view = scope.now();
        List<PodCounterReading> readings = new ArrayList<>();
        for (V1Node node : informers.nodes().getIndexer().list()) {
            String name = node.getMetadata().getName();
            parse(node)
                    .report()
                    .ifPresent(report ->
                            readings.addAll(NodeUsageReadings.of(name, report, pod -> jobOfPodOn(name, pod, view))));
        }
        return readings;
    }

    private Optional<JobId> jobOfPodOn(String node, GpuReport.PodUsage reported, TenantScope.View view) {
        V1Pod pod = informers.pods().getIndexer().getByKey(reported.namespace() + "/" + reported.name());
        if (pod == null
                || pod.getSpec() == null
                || !reported.uid().equals(pod.getMetadata().getUid())
                || !node.equals(pod.getSpec().getNodeName())
                || ReservationPods.isReservation(pod)
                || !believed(view, pod.getMetadata())) {
            return Optional.empty();
        }
        return WorkloadPhases.jobId(pod.getMetadata());
    }

    /** Reservation pods that hold their GPU; terminating ones are leaving and no longer count. */
    @Override
    public Map<GpuSlot, String> reservations() {
        Map<GpuSlot, String> result = new HashMap<>();
        for (V1Pod pod : informers.pods().getIndexer().list()) {
            if (informers.namespace().equals(pod.getMetadata().getNamespace()) && !ReservationPods.terminating(pod)) {
                ReservationPods.slot(pod).ifPresent(slot -> result.put(slot, ReservationPods.uuid(pod)));
            }
        }
        return result;
    }

    /** The reservation pod of a GPU as cached, terminating ones included. */
    public Optional<V1Pod> reservationPod(GpuSlot slot) {
        return Optional.ofNullable(informers
                .pods()
                .getIndexer()
                .getByKey(informers.namespace() + "/" + KubernetesNames.ofReservation(slot)));
    }

    /**
     * Pods bound to a node that no longer exists are left out: no kubelet will ever run them (the pod garbage
     * collector deletes them later), so they are not the workload of the job's placement — counting one as running
     * would keep a job re-queued from a removed node from ever getting its new workload.
     */
    @Override
    public Map<JobId, WorkloadPhase> workloads() {
        TenantScope.View view = scope.now();
        Optional<Set<String>> nodes = existingNodes();
        Map<JobId, List<WorkloadObject>> objects = new HashMap<>();
        for (V1Job job : informers.jobs().getIndexer().list()) {
            if (believed(view, job.getMetadata())) {
                objectsOf(objects, job.getMetadata()).add(WorkloadObject.of(job));
            }
        }
        for (DynamicKubernetesObject job : informers.trainingJobs()) {
            if (believed(view, job.getMetadata())) {
                objectsOf(objects, job.getMetadata()).add(WorkloadObject.ofTrainingJob(job));
            }
        }
        List<V1Pod> pods = informers.pods().getIndexer().list().stream()
                .filter(p -> believed(view, p.getMetadata()))
                .filter(p -> onExistingNode(p, nodes))
                .toList();
        return WorkloadPhases.of(objects, pods);
    }

    private static List<WorkloadObject> objectsOf(Map<JobId, List<WorkloadObject>> objects, V1ObjectMeta metadata) {
        return objects.computeIfAbsent(WorkloadPhases.jobId(metadata).orElseThrow(), id -> new ArrayList<>());
    }

    private static boolean onExistingNode(V1Pod pod, Optional<Set<String>> nodes) {
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        return node == null || nodes.isEmpty() || nodes.get().contains(node);
    }

    /** An object in a namespace the service manages, labelled with a team that may have objects there. */
    private static boolean believed(TenantScope.View view, V1ObjectMeta metadata) {
        return WorkloadPhases.jobId(metadata)
                .filter(id -> view.holds(metadata.getNamespace(), id.team()))
                .isPresent();
    }

    @Override
    public Map<JobId, Integer> surplusPods() {
        Map<JobId, List<V1Pod>> pods = podsByJob();
        Map<JobId, Integer> now = new HashMap<>();
        TenantScope.View view = scope.now();
        for (V1Job job : informers.jobs().getIndexer().list()) {
            Optional<JobId> id = WorkloadPhases.jobId(job.getMetadata());
            if (id.isPresent()
                    && believed(view, job.getMetadata())
                    && job.getMetadata().getDeletionTimestamp() == null) {
                int surplus = SurplusPods.of(job, pods.getOrDefault(id.get(), List.of()))
                        .size();
                if (surplus > 0) {
                    now.merge(id.get(), surplus, Integer::sum);
                }
            }
        }
        return surplusPods.lasting(now, clock.instant());
    }

    /** The job's surplus pods as cached now, in the order to remove them (see {@link SurplusPods}). */
    public List<V1Pod> surplusPodsOf(JobId job) {
        List<V1Pod> pods = podsOf(job);
        List<V1Pod> result = new ArrayList<>();
        for (V1Job object : informers.jobs().getIndexer().list()) {
            if (WorkloadPhases.jobId(object.getMetadata()).filter(job::equals).isPresent()
                    && object.getMetadata().getDeletionTimestamp() == null) {
                result.addAll(SurplusPods.of(object, pods));
            }
        }
        return result;
    }

    /** The cached pods of each job's workload (reservation pods excluded), in the namespaces the service manages. */
    private Map<JobId, List<V1Pod>> podsByJob() {
        Map<JobId, List<V1Pod>> result = new HashMap<>();
        TenantScope.View view = scope.now();
        for (V1Pod pod : informers.pods().getIndexer().list()) {
            if (!ReservationPods.isReservation(pod) && believed(view, pod.getMetadata())) {
                WorkloadPhases.jobId(pod.getMetadata())
                        .ifPresent(id -> result.computeIfAbsent(id, k -> new ArrayList<>())
                                .add(pod));
            }
        }
        return result;
    }

    /** The cached pods of one job's workload (reservation pods excluded). */
    public List<V1Pod> podsOf(JobId job) {
        return podsByJob().getOrDefault(job, List.of());
    }

    /** The namespaces holding objects of the job's workload (its Jobs and pods), as cached. */
    public Set<String> workloadNamespaces(JobId job) {
        TenantScope.View view = scope.now();
        Set<String> namespaces = new LinkedHashSet<>();
        for (V1Job object : informers.jobs().getIndexer().list()) {
            if (WorkloadPhases.jobId(object.getMetadata()).filter(job::equals).isPresent()
                    && believed(view, object.getMetadata())) {
                namespaces.add(object.getMetadata().getNamespace());
            }
        }
        podsOf(job).forEach(pod -> namespaces.add(pod.getMetadata().getNamespace()));
        return namespaces;
    }
}
