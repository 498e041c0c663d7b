package io.quotient.deploy;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.Team;
import io.quotient.core.scheduling.FairShareSettings;
import io.quotient.core.scheduling.UsageHistory;
import io.quotient.deploy.port.FairShareUsageStore;
import io.quotient.deploy.port.LeadershipGate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the teams' usage history for decayed fair shares: each snapshot records what every team borrows (GPU milli
 * beyond its guarantee) and reads back the decayed past borrowing the scheduler weighs.
 *
 * <p>The history is loaded from the port at start (so that reports show it at once) and again at the first snapshot
 * of each leader term, so that a replica elected after another one led continues from what that leader saved, not
 * from what it loaded when it started. Only the leader records and saves: at the first record of its term, then at
 * most once per save interval (a write per decision would put an API call into every decision) and when the service
 * stops ({@link #flush}). A failed save is logged and the next record saves the history again (a decision never
 * fails for it). A crash loses at most the changes of borrowing within one interval: the last saved borrowing counts
 * until the next leader's first record.
 */
public final class UsageAccounting {

    private static final Logger LOG = LoggerFactory.getLogger(UsageAccounting.class);

    private final FairShareSettings settings;
    private final Clock clock;
    private final FairShareUsageStore store;
    private final LeadershipGate leadership;
    private final Duration saveInterval;
    /** When the history was last saved in this term; null: not yet (or the last save failed). */
    private Instant savedAt;

    private volatile UsageHistory history;
    /** The term the history was loaded for; null: loaded at start, before any term. */
    private String loadedForTerm;

    /** @param saveInterval the history is saved at most this often while borrowing is recorded (0: every record) */
    public UsageAccounting(
            FairShareSettings settings,
            Clock clock,
            FairShareUsageStore store,
            LeadershipGate leadership,
            Duration saveInterval) {
        this.settings = settings;
        this.clock = clock;
        this.store = store;
        this.leadership = leadership;
        this.saveInterval = saveInterval;
        // a store unreachable at start leaves the history empty until the first snapshot of a term loads it
        this.history = load().orElseGet(() -> UsageHistory.restore(settings, clock, null));
    }

    /**
     * Records what the teams borrow now (on the leader) and returns each team's decayed past borrowing in milli.
     */
    public Map<String, Double> observe(Map<String, Team> teams, List<PlacedJob> placed) {
        return observe(teams, placed, List.of());
    }

    /**
     * As {@link #observe(Map, List)}, with the cluster's nodes: when the quotas name model groups, borrowing is also
     * recorded per group ({@link UsageHistory#borrowedMilli(Map, List, List)}).
     */
    public synchronized Map<String, Double> observe(
            Map<String, Team> teams, List<PlacedJob> placed, List<NodeSpec> nodes) {
        if (!settings.decays()) {
            return Map.of();
        }
        Optional<String> term = leadership.term();
        if (term.isEmpty()) {
            return history.decayedMilli(); // a follower neither records nor saves: the leader does
        }
        if (!term.get().equals(loadedForTerm)) {
            Optional<UsageHistory> loaded = load();
            if (loaded.isEmpty()) {
                // saving now would overwrite what the last leader saved with what this replica happens to know
                return history.decayedMilli();
            }
            history = loaded.get();
            loadedForTerm = term.get();
            savedAt = null;
        }
        history.record(UsageHistory.borrowedMilli(teams, placed, nodes));
        if (savedAt == null || !clock.instant().isBefore(savedAt.plus(saveInterval))) {
            save();
        }
        return history.decayedMilli();
    }

    /** Saves the history now if this replica leads and has recorded in its term (the service stops). */
    public synchronized void flush() {
        if (settings.decays()
                && loadedForTerm != null
                && leadership.term().map(loadedForTerm::equals).orElse(false)) {
            save();
        }
    }

    private void save() {
        try {
            store.save(history.toRecord());
            savedAt = clock.instant();
        } catch (RuntimeException e) {
            savedAt = null;
            LOG.warn(
                    "saving the fair-share usage history failed: {}; it is kept in memory and saved again with the"
                            + " next record",
                    e.getMessage());
        }
    }

    /** How fair shares remember past borrowing: the half-life and window this history keeps. */
    public FairShareSettings settings() {
        return settings;
    }

    /** Each team's decayed past borrowing in milli now, for reports. */
    public Map<String, Double> decayed() {
        return history.decayedMilli();
    }

    /** The history as saved (empty when nothing is), or empty when the store cannot be read now (logged). */
    private Optional<UsageHistory> load() {
        if (!settings.decays()) {
            return Optional.of(UsageHistory.restore(settings, clock, null));
        }
        try {
            return Optional.of(
                    UsageHistory.restore(settings, clock, store.load().orElse(null)));
        } catch (RuntimeException e) {
            LOG.warn(
                    "loading the fair-share usage history failed: {}; it is loaded again at the next snapshot and"
                            + " nothing is recorded until then",
                    e.getMessage());
            return Optional.empty();
        }
    }
}
