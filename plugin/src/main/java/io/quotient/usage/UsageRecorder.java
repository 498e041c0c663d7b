package io.quotient.usage;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.JobId;
import io.quotient.core.usage.JobAllocation;
import io.quotient.core.usage.JobUsageRecord;
import io.quotient.core.usage.UsageAccumulator;
import io.quotient.deploy.Placements;
import io.quotient.deploy.port.ClusterObserver;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.LeadershipGate;
import io.quotient.deploy.port.UsageRecordStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the usage accounting on the leader: each tick it observes the placements (job records holding capacity) and
 * the enforcers' pod counters, lets the {@link UsageAccumulator} count them, and stores the records that changed, at
 * most every {@code persistInterval} (each record whole). A replica that becomes the leader starts from the store,
 * so the accounts continue where the previous leader's last write left them; one that loses the office stops
 * counting and writing at once.
 */
public final class UsageRecorder {

    private static final Logger LOG = LoggerFactory.getLogger(UsageRecorder.class);

    /** @param persistInterval how often changed records are written (their loss on a crash is re-counted) */
    public record Settings(UsageAccumulator.Settings accounting, Duration persistInterval) {}

    private final JobRecordStore jobs;
    private final ClusterObserver cluster;
    private final UsageRecordStore store;
    private final LeadershipGate leadership;
    private final Clock clock;
    private final Settings settings;
    private final Map<JobId, JobUsageRecord> unsaved = new LinkedHashMap<>();
    private UsageAccumulator accumulator;
    private Instant lastSaved = Instant.MIN;

    public UsageRecorder(
            JobRecordStore jobs,
            ClusterObserver cluster,
            UsageRecordStore store,
            LeadershipGate leadership,
            Clock clock,
            Settings settings) {
        this.jobs = jobs;
        this.cluster = cluster;
        this.store = store;
        this.leadership = leadership;
        this.clock = clock;
        this.settings = settings;
    }

    /** One observation; does nothing on a replica that does not lead. */
    public synchronized void tick() {
        if (!leadership.isLeader()) {
            accumulator = null; // a later term starts again from the store
            unsaved.clear();
            return;
        }
        if (accumulator == null) {
            accumulator = new UsageAccumulator(settings.accounting(), store.loadAll());
            lastSaved = clock.instant();
        }
        Instant now = clock.instant();
        Map<String, NodeSpec> nodes =
                cluster.nodes().stream().collect(Collectors.toMap(NodeSpec::name, Function.identity(), (a, b) -> a));
        List<JobAllocation> allocations = jobs.listAll().stream()
                .filter(r -> r.phase().holdsCapacity())
                .map(Placements::of)
                .map(p -> JobAllocation.of(p, nodes))
                .toList();
        accumulator.observe(now, allocations, cluster.podUsage()).forEach(r -> unsaved.put(r.job(), r));
        if (!unsaved.isEmpty() && !now.isBefore(lastSaved.plus(settings.persistInterval()))) {
            save(now);
        }
    }

    /** The records as they stand: this leader's current figures, or the stored ones on another replica. */
    public synchronized List<JobUsageRecord> records() {
        return accumulator != null ? accumulator.records() : store.loadAll();
    }

    private void save(Instant now) {
        try {
            store.save(List.copyOf(unsaved.values()));
            unsaved.clear();
            lastSaved = now;
        } catch (RuntimeException e) {
            // kept for the next tick: the records are whole, a later write carries everything
            LOG.warn(
                    "could not store the usage of {} jobs: {}; retrying on the next tick",
                    unsaved.size(),
                    e.getMessage());
        }
    }
}
