package io.quotient.adapters.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.quotient.deploy.Reports;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;

/**
 * Per-team and cluster gauges, refreshed on a schedule from {@link Reports} (computing reports per scrape would
 * let a busy Prometheus load the decision path):
 * {@code quotient_team_guaranteed_gpus}, {@code quotient_team_allocated_gpus}, {@code quotient_team_borrowed_gpus},
 * {@code quotient_team_in_quota_gpus}, {@code quotient_team_fair_share_gpus},
 * {@code quotient_team_pending_jobs} (tag team); {@code quotient_cluster_gpus}, {@code quotient_cluster_free_gpus},
 * {@code quotient_cluster_whole_free_gpus}, {@code quotient_cluster_fragmentation_percent},
 * {@code quotient_cluster_fragmentation_ratio_percent}.
 */
public final class QuotientGauges {

    private final Reports reports;
    private final MultiGauge guaranteed;
    private final MultiGauge allocated;
    private final MultiGauge borrowed;
    private final MultiGauge inQuota;
    private final MultiGauge fairShare;
    private final MultiGauge pending;
    private final MultiGauge decayedUsage;
    private final AtomicReference<Reports.ClusterUsage> cluster = new AtomicReference<>();

    public QuotientGauges(Reports reports, MeterRegistry registry) {
        this.reports = reports;
        guaranteed = team("guaranteed.gpus", "GPUs guaranteed to the team", registry);
        allocated = team("allocated.gpus", "GPUs the team's placed jobs hold", registry);
        borrowed = team("borrowed.gpus", "GPUs the team holds beyond its guarantee (preemptible)", registry);
        inQuota = team("in.quota.gpus", "GPUs of the smallest set of the team's jobs covering its guarantee", registry);
        fairShare = team(
                "fair.share.gpus",
                "the team's guarantee (as far as demanded) plus its weighted share of" + " idle GPUs",
                registry);
        pending = team("pending.jobs", "the team's jobs waiting for capacity", registry);
        decayedUsage = team(
                "decayed.usage.gpus",
                "the team's decayed past borrowing that lowers its part of idle" + " GPUs (0 without usage decay)",
                registry);
        clusterGauge("quotient.cluster.gpus", "GPUs in the cluster", u -> u.totalMilli() / 1000.0, registry);
        clusterGauge(
                "quotient.cluster.free.gpus",
                "free GPU capacity (fractions count)",
                u -> u.freeMilli() / 1000.0,
                registry);
        clusterGauge("quotient.cluster.whole.free.gpus", "GPUs with nothing on them", u -> u.wholeFreeGpus(), registry);
        clusterGauge(
                "quotient.cluster.fragmentation.percent",
                "stranded GPU capacity / all GPUs (the FGD paper's measure)",
                Reports.ClusterUsage::fragmentationAmountPercent,
                registry);
        clusterGauge(
                "quotient.cluster.fragmentation.ratio.percent",
                "stranded GPU capacity / free GPUs",
                Reports.ClusterUsage::fragmentationRatioPercent,
                registry);
    }

    /** Recomputes every gauge from the current records and cluster. */
    public void refresh() {
        List<Reports.TeamUsage> teams = reports.teams();
        guaranteed.register(rows(teams, u -> u.team().guaranteedMilli() / 1000.0), true);
        allocated.register(rows(teams, u -> u.allocatedMilli() / 1000.0), true);
        borrowed.register(rows(teams, u -> u.overQuotaMilli() / 1000.0), true);
        inQuota.register(rows(teams, u -> u.inQuotaMilli() / 1000.0), true);
        fairShare.register(rows(teams, u -> u.fairShareMilli() / 1000.0), true);
        pending.register(rows(teams, Reports.TeamUsage::pendingJobs), true);
        decayedUsage.register(rows(teams, u -> u.decayedUsageMilli() / 1000.0), true);
        cluster.set(reports.cluster());
    }

    private static MultiGauge team(String name, String description, MeterRegistry registry) {
        return MultiGauge.builder("quotient.team." + name)
                .description(description)
                .register(registry);
    }

    private void clusterGauge(
            String name, String description, ToDoubleFunction<Reports.ClusterUsage> value, MeterRegistry registry) {
        Gauge.builder(name, cluster, ref -> ref.get() == null ? Double.NaN : value.applyAsDouble(ref.get()))
                .description(description)
                .register(registry);
    }

    private static List<MultiGauge.Row<?>> rows(
            List<Reports.TeamUsage> teams, ToDoubleFunction<Reports.TeamUsage> value) {
        return teams.stream()
                .<MultiGauge.Row<?>>map(
                        u -> MultiGauge.Row.of(Tags.of("team", u.team().name()), value.applyAsDouble(u)))
                .toList();
    }
}
