package io.quotient.enforcer.core;

import java.time.Duration;
import java.time.Instant;

/**
 * When to publish the node report: at once when readiness or the GPUs change; when only usage
 * changes, at most every {@code minInterval} (usage moves all the time, the API server should not);
 * and at least every {@code maxAge}, so the deployer can tell a live node from a dead agent.
 */
public record ReportSchedule(Duration minInterval, Duration maxAge) {

    public boolean shouldPublish(NodeReport next, NodeReport last, Instant lastPublishedAt) {
        if (last == null || !next.sameShape(last)) {
            return true;
        }
        Duration since = Duration.between(lastPublishedAt, next.updatedAt());
        if (since.compareTo(maxAge) >= 0) {
            return true;
        }
        return !next.sameContent(last) && since.compareTo(minInterval) >= 0;
    }
}
