package io.quotient.enforcer.app;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the node enforcer ({@code quotient.enforcer.*}).
 *
 * @param pollInterval time between enforcement cycles
 * @param gracePeriod time between SIGTERM and SIGKILL
 * @param dryRun log what would be killed, signal nothing
 * @param procRoot the host's /proc (the DaemonSet runs with hostPID, so /proc is the host's)
 * @param nodeName this node (from the downward API: spec.nodeName); required with Kubernetes on
 * @param nvmlLibraries library names tried in order
 * @param reclaimHeadroomFraction loans are reclaimed once free memory falls below this share of a GPU
 * @param kubernetes the API server and kubelet side
 */
@ConfigurationProperties("quotient.enforcer")
public record EnforcerProperties(
        @DefaultValue("500ms") Duration pollInterval,
        @DefaultValue("10s") Duration gracePeriod,
        @DefaultValue("false") boolean dryRun,
        @DefaultValue("/proc") Path procRoot,
        @DefaultValue("") String nodeName,
        @DefaultValue({"nvidia-ml", "libnvidia-ml.so.1"}) List<String> nvmlLibraries,
        @DefaultValue("0.05") double reclaimHeadroomFraction,
        @DefaultValue Kubernetes kubernetes) {

    /**
     * @param enabled watch pods, publish the node report and events, annotate reservation pods
     * @param podResourcesSocket the kubelet's pod-resources socket
     * @param reservationSyncInterval how often reservation pods are matched with their GPUs
     * @param reportMinInterval the node report is re-published for usage changes at most this often
     * @param reportMaxAge and at least this often, so its updatedAt stays recent
     */
    public record Kubernetes(
            @DefaultValue("true") boolean enabled,

            @DefaultValue("/var/lib/kubelet/pod-resources/kubelet.sock")
            Path podResourcesSocket,

            @DefaultValue("10s") Duration reservationSyncInterval,
            @DefaultValue("10s") Duration reportMinInterval,
            @DefaultValue("30s") Duration reportMaxAge) {}

    public EnforcerProperties {
        positive("poll-interval", pollInterval);
        positive("grace-period", gracePeriod);
        positive("kubernetes.reservation-sync-interval", kubernetes.reservationSyncInterval());
        positive("kubernetes.report-max-age", kubernetes.reportMaxAge());
        if (kubernetes.reportMinInterval().isNegative()) {
            throw new IllegalArgumentException(
                    "quotient.enforcer.kubernetes.report-min-interval must be 0 or more, got "
                            + kubernetes.reportMinInterval());
        }
        if (!(reclaimHeadroomFraction >= 0 && reclaimHeadroomFraction <= 1)) {
            throw new IllegalArgumentException("quotient.enforcer.reclaim-headroom-fraction must be a share of a GPU's "
                    + "memory from 0 to 1, got " + reclaimHeadroomFraction);
        }
        if (nvmlLibraries.isEmpty()) {
            throw new IllegalArgumentException("quotient.enforcer.nvml-libraries is empty: name at least one library, "
                    + "e.g. libnvidia-ml.so.1");
        }
        if (kubernetes.enabled() && nodeName.isBlank()) {
            throw new IllegalArgumentException(
                    "quotient.enforcer.node-name is not set: the enforcer must know its node "
                            + "to watch its pods; set NODE_NAME from the downward API (spec.nodeName), or disable "
                            + "quotient.enforcer.kubernetes.enabled for a local run");
        }
    }

    private static void positive(String name, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException("quotient.enforcer." + name + " must be positive, got " + value);
        }
    }
}
