package io.quotient.it.soak;

import io.quotient.it.soak.Observation.DecisionEvent;
import io.quotient.it.soak.Observation.LeaseState;
import java.util.ArrayList;
import java.util.List;

/**
 * At most one leader acting at a time: the Lease's terms as observed (holder, acquired at, last renewal) against the
 * service's decision events (each says which replica decided, to the second). A replica may decide only within its
 * own term, which ends when the next holder acquires the Lease; an event's time is truncated to the second, so it
 * counts as the second that follows it. Where observations missed a term (the transitions counter jumped), the gap
 * is not judged.
 */
final class LeaderTerms {

    /** Event times are whole seconds: the decision happened within the second after. */
    private static final long EVENT_PRECISION_MS = 1000;

    private record Term(String holder, long acquire, long lastRenew, int transitions) {}

    private final List<Term> terms = new ArrayList<>();
    private final List<DecisionEvent> events = new ArrayList<>();
    private final List<Long> writes = new ArrayList<>();

    void observe(Observation observation) {
        LeaseState lease = observation.lease();
        if (lease != null && lease.holder() != null && !lease.holder().isEmpty()) {
            writes.add(lease.acquire());
            writes.add(lease.renew());
            Term last = terms.isEmpty() ? null : terms.get(terms.size() - 1);
            if (last != null && last.holder().equals(lease.holder()) && last.acquire() == lease.acquire()) {
                terms.set(
                        terms.size() - 1,
                        new Term(
                                last.holder(),
                                last.acquire(),
                                Math.max(last.lastRenew(), lease.renew()),
                                last.transitions()));
            } else {
                terms.add(new Term(lease.holder(), lease.acquire(), lease.renew(), lease.transitions()));
            }
        }
        events.addAll(observation.events());
    }

    /** Number of leader changes seen. */
    int takeovers() {
        return Math.max(0, terms.size() - 1);
    }

    /**
     * The first Lease write seen after {@code t} (an acquisition or a renewal), or -1: after the leader was killed
     * or paused at {@code t}, that is the first sign of a live leader again, whoever it is (a killed replica comes
     * back with the same identity and may renew its own Lease). Renewals are seen only as often as the Lease is
     * read, so this may be late by one observation interval.
     */
    long firstWriteAfter(long t) {
        return writes.stream()
                .filter(w -> w > t)
                .mapToLong(Long::longValue)
                .min()
                .orElse(-1);
    }

    List<String> violations() {
        List<String> violations = new ArrayList<>();
        for (DecisionEvent event : events) {
            String verdict = judge(event);
            if (verdict != null) {
                violations.add(verdict);
            }
        }
        return violations;
    }

    /** Null when the event lies in a term of its replica (or cannot be judged); else why it is a violation. */
    private String judge(DecisionEvent event) {
        long from = event.at();
        long to = event.at() + EVENT_PRECISION_MS;
        for (int i = 0; i < terms.size(); i++) {
            Term term = terms.get(i);
            Term next = i + 1 < terms.size() ? terms.get(i + 1) : null;
            long end = next == null ? Long.MAX_VALUE : next.acquire();
            if (term.holder().equals(event.instance()) && to > term.acquire() && from <= end) {
                return null;
            }
            boolean gap = next != null && next.transitions() - term.transitions() > 1;
            if (gap && to > term.lastRenew() && from <= next.acquire()) {
                return null; // an unobserved term lies here: not judged
            }
        }
        if (terms.isEmpty() || to <= terms.get(0).acquire()) {
            return null; // before the first observed term
        }
        return "replica " + event.instance() + " decided (" + event.reason() + " on " + event.object() + " at t="
                + event.at() + " ms) outside its terms as leader; terms: " + describe();
    }

    private String describe() {
        StringBuilder text = new StringBuilder();
        for (Term term : terms) {
            text.append(term.holder()).append("@").append(term.acquire()).append(" ");
        }
        return text.toString().trim();
    }
}
