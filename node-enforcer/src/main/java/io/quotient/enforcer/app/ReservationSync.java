package io.quotient.enforcer.app;

import io.quotient.enforcer.core.PodDirectory;
import io.quotient.enforcer.core.ReservationAssignments;
import io.quotient.enforcer.k8s.KubernetesReporter;
import io.quotient.enforcer.k8s.PodResourcesClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Annotates reservation pods with the GPU UUID the kubelet gave them, so the deployer can bind fractions. */
final class ReservationSync implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(ReservationSync.class);

    private final PodResourcesClient kubelet;
    private final PodDirectory pods;
    private final KubernetesReporter reporter;
    private final String node;

    ReservationSync(PodResourcesClient kubelet, PodDirectory pods, KubernetesReporter reporter, String node) {
        this.kubelet = kubelet;
        this.pods = pods;
        this.reporter = reporter;
        this.node = node;
    }

    @Override
    public void run() {
        try {
            for (ReservationAssignments.Assignment assignment :
                    ReservationAssignments.pending(kubelet.list(), pods.all())) {
                reporter.annotateReservation(assignment);
                LOG.info(
                        "Node {}: reservation pod {}/{} holds GPU {}",
                        node,
                        assignment.namespace(),
                        assignment.pod(),
                        assignment.gpuUuid());
            }
        } catch (Exception e) {
            LOG.warn("Node {}: cannot sync reservation pods: {}", node, e.getMessage());
        }
    }
}
