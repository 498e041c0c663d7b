package io.quotient.adapters.k8s;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.scheduling.JobId;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The live cluster from the informer caches: GPU nodes (GPU-feature-discovery labels, allocatable, the node
 * enforcer's report), reservation pods with the GPU UUIDs reported on them, and the phases of job workloads.
 * Reads never touch the network.
 */
public final class KubernetesClusterObserver implements ClusterObserver {

    private final ClusterInformers informers;
    private final Clock clock;
    private final Duration reportFreshness;

    /** @param reportFreshness how recent the enforcer's report must be for a node to take new fractions */
    public KubernetesClusterObserver(ClusterInformers informers, Clock clock, Duration reportFreshness) {
        this.informers = informers;
        this.clock = clock;
        this.reportFreshness = reportFreshness;
    }

    @Override
    public List<NodeSpec> nodes() {
        List<NodeSpec> result = new ArrayList<>();
        for (V1Node node : informers.nodes().getIndexer().list()) {
            NodeFacts.spec(node).ifPresent(result::add);
        }
        result.sort(Comparator.comparing(NodeSpec::name));
        return result;
    }

    /** One schedulable GPU node by name. */
    public Optional<NodeSpec> node(String name) {
        V1Node node = informers.nodes().getIndexer().getByKey(name);
        return node == null ? Optional.empty() : NodeFacts.spec(node);
    }

    @Override
    public Set<String> fractionReadyNodes() {
        Instant now = clock.instant();
        Set<String> ready = new HashSet<>();
        for (V1Node node : informers.nodes().getIndexer().list()) {
            if (NodeFacts.spec(node).isPresent() && NodeFacts.fractionReady(node, now, reportFreshness)) {
                ready.add(node.getMetadata().getName());
            }
        }
        return ready;
    }

    /** Reservation pods that hold their GPU; terminating ones are leaving and no longer count. */
    @Override
    public Map<GpuSlot, String> reservations() {
        Map<GpuSlot, String> result = new HashMap<>();
        for (V1Pod pod : informers.pods().getIndexer().list()) {
            if (!ReservationPods.terminating(pod)) {
                ReservationPods.slot(pod).ifPresent(slot -> result.put(slot, ReservationPods.uuid(pod)));
            }
        }
        return result;
    }

    /** The reservation pod of a GPU as cached, terminating ones included. */
    Optional<V1Pod> reservationPod(GpuSlot slot) {
        return Optional.ofNullable(informers.pods().getIndexer()
                .getByKey(informers.namespace() + "/" + KubernetesNames.ofReservation(slot)));
    }

    @Override
    public Map<JobId, WorkloadPhase> workloads() {
        return WorkloadPhases.of(informers.jobs().getIndexer().list(), informers.pods().getIndexer().list());
    }

    /** The cached pods of one job's workload (reservation pods excluded). */
    List<V1Pod> podsOf(JobId job) {
        List<V1Pod> result = new ArrayList<>();
        for (V1Pod pod : informers.pods().getIndexer().list()) {
            if (!ReservationPods.isReservation(pod) && WorkloadPhases.jobId(pod.getMetadata()).filter(job::equals).isPresent()) {
                result.add(pod);
            }
        }
        return result;
    }
}
