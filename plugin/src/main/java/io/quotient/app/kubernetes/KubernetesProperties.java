package io.quotient.app.kubernetes;

import io.quotient.app.SettingChecks;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the Kubernetes mode under {@code quotient.kubernetes.*} (the kubeconfig itself is
 * {@code quotient.kubeconfig}; without it the service uses its pod's service account).
 *
 * @param namespace         where GpuJobs, the jobs' workloads, reservation pods, the teams ConfigMap and the Lease live
 * @param reportFreshness   a node takes new fractions only while its enforcer's report is at most this old
 * @param leaseName         the leader-election Lease
 * @param leaseDuration     how long a leader's Lease lasts without renewal (a follower takes over after it)
 * @param renewDeadline     a leader that could not renew for this long steps down (must be below leaseDuration)
 * @param retryPeriod       how often leader election is tried and renewed
 * @param identity          this replica's name in the Lease; default: $POD_NAME, else host name plus a random suffix
 * @param cacheSyncTimeout  how long start-up waits for the informer caches to list the cluster
 * @param claimWriters      how many GpuJobs a new leader rewrites at once when it claims the records for its term
 *                          (before its first decision; see docs/operations.md, "A new leader claims the records")
 */
@Validated
@ConfigurationProperties("quotient.kubernetes")
public record KubernetesProperties(
        @NotBlank @DefaultValue("quotient-system") String namespace,
        @NotNull @DefaultValue("60s") Duration reportFreshness,
        @NotBlank @DefaultValue("quotient-leader") String leaseName,
        @NotNull @DefaultValue("8s") Duration leaseDuration,
        @NotNull @DefaultValue("6s") Duration renewDeadline,
        @NotNull @DefaultValue("1s") Duration retryPeriod,
        String identity,
        @NotNull @DefaultValue("60s") Duration cacheSyncTimeout,
        @Min(1) @Max(64) @DefaultValue("16") int claimWriters) {

    public KubernetesProperties {
        SettingChecks.positive("quotient.kubernetes.report-freshness", reportFreshness);
        SettingChecks.positive("quotient.kubernetes.lease-duration", leaseDuration);
        SettingChecks.positive("quotient.kubernetes.renew-deadline", renewDeadline);
        SettingChecks.positive("quotient.kubernetes.retry-period", retryPeriod);
        SettingChecks.positive("quotient.kubernetes.cache-sync-timeout", cacheSyncTimeout);
    }
}
