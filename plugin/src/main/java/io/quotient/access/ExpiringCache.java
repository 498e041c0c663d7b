package io.quotient.access;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A small map whose entries expire after a fixed time, for access decisions: a burst of calls by one user asks the
 * API server once, and a revoked binding or token takes effect within the time-to-live. Bounded: when full, expired
 * entries go first, then everything.
 */
final class ExpiringCache<K, V> {

    private record Entry<V>(V value, Instant expires) {}

    private final Map<K, Entry<V>> entries = new ConcurrentHashMap<>();
    private final Duration ttl;
    private final int maxEntries;
    private final Clock clock;

    ExpiringCache(Duration ttl, int maxEntries, Clock clock) {
        this.ttl = ttl;
        this.maxEntries = maxEntries;
        this.clock = clock;
    }

    /** The cached value, or a fresh one from {@code load} (cached for the time-to-live; a zero TTL caches nothing). */
    V get(K key, Function<K, V> load) {
        Instant now = clock.instant();
        Entry<V> entry = entries.get(key);
        if (entry != null && now.isBefore(entry.expires())) {
            return entry.value();
        }
        V value = load.apply(key);
        if (!ttl.isZero()) {
            if (entries.size() >= maxEntries) {
                entries.values().removeIf(e -> !now.isBefore(e.expires()));
                if (entries.size() >= maxEntries) {
                    entries.clear();
                }
            }
            entries.put(key, new Entry<>(value, now.plus(ttl)));
        }
        return value;
    }

    int size() {
        return entries.size();
    }
}
