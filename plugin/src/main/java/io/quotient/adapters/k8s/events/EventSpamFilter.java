package io.quotient.adapters.k8s.events;

import io.quotient.core.model.JobId;
import io.quotient.deploy.TokenBucket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Keeps one job from flooding its Events with one reason, as client-go's event spam filter does: a burst of
 * events per job and reason, then one per interval. A waiting job's reason changes whenever the free capacity it
 * is told about changes, which on a busy cluster would be an Event every re-queue; its status always carries the
 * latest reason, so nothing is lost but repetition. Thread-safe.
 */
final class EventSpamFilter {

    private record Key(JobId job, String reason) {}

    private static final int FORGET_AFTER_KEYS = 10_000;

    private final int burst;
    private final Duration refill;
    private final Clock clock;
    private final Map<Key, TokenBucket> buckets = new HashMap<>();

    /** @param refill the time one more event of a job and reason is allowed after the burst is used up */
    EventSpamFilter(int burst, Duration refill, Clock clock) {
        this.burst = burst;
        this.refill = refill;
        this.clock = clock;
    }

    /** Whether an event of this job with this reason may be sent now (and counts it if so). */
    synchronized boolean allow(JobId job, String reason) {
        Instant now = clock.instant();
        if (buckets.size() > FORGET_AFTER_KEYS) {
            buckets.values().removeIf(b -> b.refilled(now, burst, refill).tokens() >= burst);
        }
        Key key = new Key(job, reason);
        TokenBucket bucket = buckets.get(key);
        TokenBucket current = bucket == null ? TokenBucket.full(burst, now) : bucket.refilled(now, burst, refill);
        if (!current.hasToken()) {
            buckets.put(key, current);
            return false;
        }
        buckets.put(key, current.take());
        return true;
    }
}
