package io.quotient.adapters.memory;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.usage.PodCounterReading;
import io.quotient.deploy.port.ClusterObserver;
import io.quotient.deploy.port.EventHistory;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.GpuSlot;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.TemplateTraits;
import io.quotient.deploy.port.WorkloadGateway;
import io.quotient.deploy.port.WorkloadPhase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * An in-memory cluster that plays both sides of the Kubernetes adapters: what the observer sees and what the
 * gateway changes. Workloads run as soon as they are deployed, reservations get a stable fake GPU UUID at
 * once, and every node's enforcer is ready. Lets {@code serve} run without a cluster and the use cases be
 * tested without one.
 */
public final class EmbeddedCluster implements ClusterObserver, WorkloadGateway, EventHistory {

    /** Events kept for inspection; older ones are dropped. */
    private static final int EVENTS_KEPT = 1000;

    /** Replaced as a whole when a node leaves, so that readers never see it change under them. */
    private volatile List<NodeSpec> nodes;

    private final Map<String, TemplateTraits> templates;
    private final Map<JobId, Workload> workloads = new LinkedHashMap<>();
    private final Map<GpuSlot, String> reservations = new LinkedHashMap<>();
    private final Map<JobId, Integer> creations = new HashMap<>();
    private final Deque<Event> events = new ArrayDeque<>();
    /** What a node enforcer would report; the embedded cluster has none, so nothing unless a simulation sets it. */
    private volatile List<PodCounterReading> podUsage = List.of();

    /** A workload as the embedded cluster runs it. */
    public record Workload(String node, List<GpuBinding> gpus, WorkloadPhase phase) {}

    /** An event recorded on a job. */
    public record Event(JobId job, String reason, String message, Instant at) {}

    /** @param templates the templates deploys may name, with what each can render */
    public EmbeddedCluster(List<NodeSpec> nodes, Map<String, TemplateTraits> templates) {
        this.nodes = List.copyOf(nodes);
        this.templates = Map.copyOf(templates);
    }

    /** Sets the pod counters the embedded cluster reports, as node enforcers would (simulations, tests). */
    public void reportPodUsage(List<PodCounterReading> readings) {
        podUsage = List.copyOf(readings);
    }

    @Override
    public List<PodCounterReading> podUsage() {
        return podUsage;
    }

    @Override
    public Map<String, TemplateTraits> templates() {
        return templates;
    }

    @Override
    public List<NodeSpec> nodes() {
        return nodes;
    }

    @Override
    public Optional<Set<String>> existingNodes() {
        Set<String> names = new TreeSet<>();
        nodes.forEach(n -> names.add(n.name()));
        return names.isEmpty() ? Optional.empty() : Optional.of(names);
    }

    /**
     * The node leaves the cluster (deleted, or its machine gone): it takes no new work, and the workloads it ran
     * are left as they were, as a node's pods are until something notices, for the reconciliation to find.
     */
    public void removeNode(String name) {
        List<NodeSpec> left = nodes.stream().filter(n -> !n.name().equals(name)).toList();
        if (left.size() == nodes.size()) {
            throw new IllegalArgumentException("node " + name + " is not in the embedded cluster");
        }
        nodes = left;
    }

    @Override
    public Set<String> fractionReadyNodes() {
        Set<String> names = new TreeSet<>();
        nodes.forEach(n -> names.add(n.name()));
        return names;
    }

    @Override
    public synchronized Map<GpuSlot, String> reservations() {
        return Map.copyOf(reservations);
    }

    @Override
    public synchronized Map<JobId, WorkloadPhase> workloads() {
        Map<JobId, WorkloadPhase> phases = new LinkedHashMap<>();
        workloads.forEach((job, w) -> phases.put(job, w.phase()));
        return phases;
    }

    @Override
    public synchronized void deploy(JobRecord record, PlacedJob placement, List<GpuBinding> gpus) {
        Workload wanted = new Workload(placement.node(), List.copyOf(gpus), WorkloadPhase.RUNNING);
        Workload existing = workloads.get(record.id());
        if (existing != null
                && existing.node().equals(wanted.node())
                && existing.gpus().equals(wanted.gpus())) {
            return;
        }
        workloads.put(record.id(), wanted);
        creations.merge(record.id(), 1, Integer::sum);
    }

    @Override
    public synchronized void stop(JobId job, Duration grace) {
        workloads.remove(job);
    }

    /** One workload per job, never more: there is nothing to remove (and {@link #surplusPods} stays empty). */
    @Override
    public void removeSurplusPods(JobId job, Duration grace) {}

    @Override
    public synchronized String ensureReservation(GpuSlot gpu) {
        return reservations.computeIfAbsent(gpu, EmbeddedCluster::fakeUuid);
    }

    @Override
    public synchronized void releaseReservation(GpuSlot gpu) {
        reservations.remove(gpu);
    }

    @Override
    public synchronized void recordEvent(JobId job, String reason, String message) {
        if (events.size() == EVENTS_KEPT) {
            events.removeFirst();
        }
        events.addLast(new Event(job, reason, message, Instant.now()));
    }

    /** Ends a job's workload as its pods would: the next phase sync releases its capacity. */
    public synchronized void finish(JobId job, boolean succeeded) {
        Workload w = workloads.get(job);
        if (w == null) {
            throw new IllegalArgumentException("job " + job + " has no workload in the embedded cluster");
        }
        workloads.put(
                job, new Workload(w.node(), w.gpus(), succeeded ? WorkloadPhase.SUCCEEDED : WorkloadPhase.FAILED));
    }

    /** The workload of a job, or null when it has none. */
    public synchronized Workload workloadOf(JobId job) {
        return workloads.get(job);
    }

    /** How many times a workload was created (not skipped as identical) for the job; detects duplicates. */
    public synchronized int creations(JobId job) {
        return creations.getOrDefault(job, 0);
    }

    public synchronized List<Event> events() {
        return List.copyOf(events);
    }

    @Override
    public synchronized List<JobEvent> recent(int limit) {
        return events.stream()
                .skip(Math.max(0, events.size() - limit))
                .map(e -> new JobEvent(e.job(), e.job().team() + "/" + e.job().name(), e.reason(), e.message(), e.at()))
                .toList();
    }

    public synchronized List<Event> events(JobId job) {
        return events.stream().filter(e -> e.job().equals(job)).toList();
    }

    /** A UUID in the NVML format, stable for the GPU, so restarts of the embedded cluster agree. */
    static String fakeUuid(GpuSlot gpu) {
        return "GPU-" + UUID.nameUUIDFromBytes((gpu.node() + "/" + gpu.gpuIndex()).getBytes(StandardCharsets.UTF_8));
    }
}
