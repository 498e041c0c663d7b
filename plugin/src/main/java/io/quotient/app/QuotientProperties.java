package io.quotient.app;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import java.time.Duration;
import org.quartz.CronExpression;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The service's settings under {@code quotient.*} (command line {@code --quotient.teams-file=...}, environment
 * {@code QUOTIENT_TEAMS_FILE}, or application.yaml).
 *
 * @param cluster           which cluster to work on
 * @param kubeconfig        kubeconfig file; when set (or KUBECONFIG is), {@code auto} mode picks Kubernetes
 * @param teamsFile         teams and quotas (YAML); re-read when it changes. Unset: the cluster mode's default
 * @param teamsPollInterval how often the teams file is checked for changes
 * @param templatesFolder   extra or replacing job templates ({@code *.yaml}); the built-in ones otherwise
 * @param embedded          the embedded cluster
 * @param scheduling        how decisions are made and applied
 * @param schedules         the periodic jobs (Quartz)
 * @param api               limits of the REST API's requests
 */
@Validated
@ConfigurationProperties("quotient")
public record QuotientProperties(
        @Valid @NotNull @DefaultValue Cluster cluster,
        String kubeconfig,
        Path teamsFile,
        @NotNull @DefaultValue("5s") Duration teamsPollInterval,
        Path templatesFolder,
        @Valid @NotNull @DefaultValue Embedded embedded,
        @Valid @NotNull @DefaultValue Scheduling scheduling,
        @Valid @NotNull @DefaultValue Schedules schedules,
        @Valid @NotNull @DefaultValue Api api) {

    public QuotientProperties {
        SettingChecks.positive("quotient.teams-poll-interval", teamsPollInterval);
    }

    /** @param mode auto (default), embedded or kubernetes */
    public record Cluster(@NotNull @DefaultValue("auto") ClusterMode mode) {}

    /** @param clusterFile nodes of the embedded cluster (YAML); 4 nodes × 10 GPUs when unset */
    public record Embedded(Path clusterFile) {}

    /**
     * @param placementPolicy placement policy name (PlacementPolicies: quotient, fgd, bestfit, ...)
     * @param seed            seed of the policy's tie-breaking
     * @param stopGrace       how long evicted and deleted jobs' pods get to exit (checkpointing)
     * @param fairShareMinGainGpus a team reclaims toward its fair share only when at least this far below it
     * @param maxMovesPerDecision  running jobs moved at most to make room for one job (0: never move)
     * @param podArrivalGrace      how long the placement of a pod governed at admission (a notebook's) waits for the
     *                             pod's create before it is given up
     * @param maxMinRuntime        the longest {@code minRuntimeSeconds} a job may ask for (the teams file may lower it
     *                             per team): beyond it a job on borrowed GPUs would keep them from their owner
     * @param fairShare            how fair shares remember past borrowing (docs/fairness.md)
     */
    public record Scheduling(
            @NotBlank @DefaultValue("quotient") String placementPolicy,
            @DefaultValue("42") long seed,
            @NotNull @DefaultValue("30s") Duration stopGrace,
            @DecimalMin("0.0") @DefaultValue("1") double fairShareMinGainGpus,

            @Min(0) @DefaultValue("4") int maxMovesPerDecision,

            @NotNull @DefaultValue("60s") Duration podArrivalGrace,
            @NotNull @DefaultValue("1h") Duration maxMinRuntime,
            @Valid @NotNull @DefaultValue FairShare fairShare) {

        public Scheduling {
            SettingChecks.notNegative("quotient.scheduling.stop-grace", stopGrace);
            SettingChecks.within("quotient.scheduling.fair-share-min-gain-gpus", fairShareMinGainGpus, 0, 1_000_000);
            SettingChecks.positive("quotient.scheduling.pod-arrival-grace", podArrivalGrace);
            SettingChecks.notNegative("quotient.scheduling.max-min-runtime", maxMinRuntime);
        }
    }

    /**
     * @param usageHalfLife how long until a borrowed GPU counts half as much; 0 (the default): no memory
     * @param window        how far back borrowing counts at all
     * @param saveInterval  the history is saved at most this often (and when the service stops): a write per decision
     *                      would put an API call into every decision
     */
    public record FairShare(
            @NotNull @DefaultValue("0s") Duration usageHalfLife,
            @NotNull @DefaultValue("7d") Duration window,
            @NotNull @DefaultValue("10s") Duration saveInterval) {

        public FairShare {
            SettingChecks.notNegative("quotient.scheduling.fair-share.usage-half-life", usageHalfLife);
            SettingChecks.positive("quotient.scheduling.fair-share.window", window);
            SettingChecks.positive("quotient.scheduling.fair-share.save-interval", saveInterval);
        }
    }

    /**
     * @param requeueInterval          re-queue of waiting jobs (and reconciliation with the cluster)
     * @param reclaimInterval          return of borrowed GPUs to teams with waiting in-quota work
     * @param defragmentCron           Quartz cron of the defragmentation, nightly by default
     * @param defragmentMaxMovedShare  at most this share of the cluster's GPUs is moved per defragmentation
     * @param metricsInterval          refresh of the per-team and cluster gauges
     * @param requeueMaxRelabels       stored quota states rewritten at most per re-queue pass (one API call each)
     */
    public record Schedules(
            @NotNull @DefaultValue("5s") Duration requeueInterval,
            @NotNull @DefaultValue("15s") Duration reclaimInterval,
            @NotBlank @DefaultValue("0 0 3 * * ?") String defragmentCron,

            @DecimalMin("0.0") @DecimalMax("1.0") @DefaultValue("0.1")
            double defragmentMaxMovedShare,

            @NotNull @DefaultValue("15s") Duration metricsInterval,

            @Min(1) @DefaultValue("50") int requeueMaxRelabels) {

        public Schedules {
            SettingChecks.positive("quotient.schedules.requeue-interval", requeueInterval);
            SettingChecks.positive("quotient.schedules.reclaim-interval", reclaimInterval);
            SettingChecks.positive("quotient.schedules.metrics-interval", metricsInterval);
            SettingChecks.within("quotient.schedules.defragment-max-moved-share", defragmentMaxMovedShare, 0, 1);
            if (defragmentCron != null && !CronExpression.isValidExpression(defragmentCron)) {
                throw new IllegalArgumentException("quotient.schedules.defragment-cron '" + defragmentCron
                        + "' is not a Quartz cron expression (seconds minutes hours day-of-month month day-of-week,"
                        + " e.g. '0 0 3 * * ?')");
            }
        }
    }

    /**
     * @param maxBodyBytes the longest request body read (413 beyond it); a job request is a few kilobytes
     */
    public record Api(@Min(1) @DefaultValue("1048576") long maxBodyBytes) {}
}
