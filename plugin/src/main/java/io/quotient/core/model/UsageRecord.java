package io.quotient.core.model;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The durable form of a usage history ({@code core.scheduling.UsageHistory}): what survives a restart or a failover.
 *
 * @param bucketMillis the width of one bucket; a history of another width is not restored
 * @param last         when borrowing was last recorded; null: never
 * @param lastBorrowed per team, the milli it borrowed from {@code last} on
 * @param buckets      per team, per bucket index (epoch millis / width), the borrowing in the bucket in milli × ms,
 *                     each moment weighted by 2^((moment − bucket end) / half-life)
 */
public record UsageRecord(
        long bucketMillis, Instant last, Map<String, Long> lastBorrowed, Map<String, Map<Long, Double>> buckets) {

    public UsageRecord {
        Objects.requireNonNull(lastBorrowed, "lastBorrowed");
        Objects.requireNonNull(buckets, "buckets");
        lastBorrowed = Map.copyOf(lastBorrowed);
        buckets = buckets.entrySet().stream()
                .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, e -> Map.copyOf(e.getValue())));
    }
}
