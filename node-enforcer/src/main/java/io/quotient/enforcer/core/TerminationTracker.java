package io.quotient.enforcer.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Processes being terminated: sent SIGTERM (and the time after which they get SIGKILL), or already
 * sent SIGKILL. They stay here until they leave the GPU process list, so they are neither signalled
 * again nor counted as still holding memory.
 */
final class TerminationTracker {

    private static final class Pending {
        final KillDecision decision;
        final long deadlineNanos;
        boolean forced;

        Pending(KillDecision decision, long deadlineNanos) {
            this.decision = decision;
            this.deadlineNanos = deadlineNanos;
        }
    }

    private final Map<ProcessIdentity, Pending> pending = new HashMap<>();

    void begin(KillDecision decision, long deadlineNanos) {
        pending.put(decision.target(), new Pending(decision, deadlineNanos));
    }

    Set<ProcessIdentity> terminating() {
        return Set.copyOf(pending.keySet());
    }

    /** The decisions whose grace period has run out and that have not had their SIGKILL yet. */
    List<KillDecision> takeDue(long nowNanos) {
        List<KillDecision> due = new ArrayList<>();
        for (Pending p : pending.values()) {
            if (!p.forced && nowNanos - p.deadlineNanos >= 0) {
                p.forced = true;
                due.add(p.decision);
            }
        }
        return due;
    }

    /** Forgets processes that are gone from the GPU: nothing more to do for them. */
    void retainListed(Predicate<ProcessIdentity> listed) {
        pending.keySet().removeIf(identity -> !listed.test(identity));
    }
}
