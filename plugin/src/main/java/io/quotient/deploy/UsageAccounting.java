package io.quotient.deploy;

import io.quotient.core.scheduling.FairShareSettings;
import io.quotient.core.scheduling.PlacedJob;
import io.quotient.core.scheduling.Team;
import io.quotient.core.scheduling.UsageHistory;
import io.quotient.deploy.port.FairShareUsageStore;

import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps the teams' usage history for decayed fair shares: each snapshot records what every team borrows (GPU milli
 * beyond its guarantee) and reads back the decayed past borrowing the scheduler weighs; the history is saved
 * through the port after each record and restored from it at start.
 */
public final class UsageAccounting {

    private final UsageHistory history;
    private final FairShareUsageStore store;

    public UsageAccounting(FairShareSettings settings, Clock clock, FairShareUsageStore store) {
        this.store = store;
        this.history = UsageHistory.restore(settings, clock, store.load().orElse(null));
    }

    /** Records what the teams borrow now and returns each team's decayed past borrowing in milli. */
    public Map<String, Double> observe(Map<String, Team> teams, List<PlacedJob> placed) {
        if (!history.settings().decays()) {
            return Map.of();
        }
        Map<String, Long> held = new HashMap<>();
        placed.forEach(p -> held.merge(p.spec().team(), p.gpuMilli(), Long::sum));
        Map<String, Long> borrowed = new HashMap<>();
        held.forEach((team, milli) -> {
            Team t = teams.get(team);
            long beyond = milli - (t == null ? 0 : t.guaranteedMilli());
            if (beyond > 0) {
                borrowed.put(team, beyond);
            }
        });
        history.record(borrowed);
        store.save(history.toRecord());
        return history.decayedMilli();
    }

    /** Each team's decayed past borrowing in milli now, for reports. */
    public Map<String, Double> decayed() {
        return history.decayedMilli();
    }
}
