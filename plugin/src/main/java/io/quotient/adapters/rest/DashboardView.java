package io.quotient.adapters.rest;

import io.quotient.deploy.port.EventHistory;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything the dashboard page draws, read at one moment: the teams, the GPU map, who waits and why, and what
 * happened lately.
 *
 * @param placed  per placed job ({@code team/name}): whether it runs in quota or borrowed, and its burst limit
 * @param pending waiting jobs, oldest first
 * @param recent  the latest events on jobs, the newest last
 */
public record DashboardView(
        Instant at,
        List<TeamView> teams,
        ClusterView cluster,
        Map<String, PlacedView> placed,
        List<PendingView> pending,
        List<EventView> recent) {

    /**
     * @param quotaState  {@code InQuota} or {@code OverQuota} (borrowed)
     * @param limitPerGpu the share of each GPU the job may burst to (memory above its share is loaned); null for
     *                    whole GPUs
     * @param idle        why the job counts as idle (its {@code Idle} condition); null while it is not
     */
    public record PlacedView(String quotaState, Double limitPerGpu, String idle) {}

    /** @param gpus the GPUs it asks for (a MiB request counted on the cluster's first GPU model) */
    public record PendingView(String team, String name, String phase, double gpus, String reason, Instant createdAt) {}

    /** One event; {@code team} is null when the job it was about is gone. */
    public record EventView(String team, String job, String reason, String message, Instant at) {

        static EventView of(EventHistory.JobEvent e) {
            return new EventView(
                    e.job() == null ? null : e.job().team(),
                    e.job() == null ? e.object() : e.job().name(),
                    e.reason(),
                    e.message(),
                    e.at());
        }
    }
}
