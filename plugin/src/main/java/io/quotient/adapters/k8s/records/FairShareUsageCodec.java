package io.quotient.adapters.k8s.records;

import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.quotient.core.model.UsageRecord;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * A {@link UsageRecord} (the teams' history behind decayed fair shares) as the JSON kept in its ConfigMap: built as
 * a tree and serialised, never pasted, so team names travel as JSON strings whatever they contain. Reading is
 * strict: a record that does not parse, or that holds a value no history could hold, is reported, not guessed.
 */
final class FairShareUsageCodec {

    static final int VERSION = 1;

    private FairShareUsageCodec() {}

    static String encode(UsageRecord record) {
        JsonObject json = new JsonObject();
        json.addProperty("version", VERSION);
        json.addProperty("bucketMillis", record.bucketMillis());
        if (record.last() == null) {
            json.add("last", JsonNull.INSTANCE); // nothing recorded yet
        } else {
            json.addProperty("last", record.last().toString());
        }
        JsonObject borrowed = new JsonObject();
        record.lastBorrowed().forEach(borrowed::addProperty);
        json.add("lastBorrowed", borrowed);
        JsonObject buckets = new JsonObject();
        record.buckets().forEach((team, b) -> {
            JsonObject teamBuckets = new JsonObject();
            b.forEach((index, value) -> teamBuckets.addProperty(Long.toString(index), value));
            buckets.add(team, teamBuckets);
        });
        json.add("buckets", buckets);
        return json.toString();
    }

    /** @throws IllegalArgumentException when the text is not a fair-share usage record this version can read */
    static UsageRecord decode(String text) {
        try {
            JsonObject json = JsonParser.parseString(text).getAsJsonObject();
            int version = json.get("version").getAsInt();
            if (version != VERSION) {
                throw new IllegalArgumentException("record version " + version + ", expected " + VERSION);
            }
            long bucketMillis = json.get("bucketMillis").getAsLong();
            if (bucketMillis <= 0) {
                throw new IllegalArgumentException("bucketMillis " + bucketMillis + " is not positive");
            }
            JsonElement last = json.get("last");
            Map<String, Long> borrowed = new HashMap<>();
            json.getAsJsonObject("lastBorrowed")
                    .entrySet()
                    .forEach(e -> borrowed.put(
                            e.getKey(), nonNegative(e.getValue().getAsLong(), "lastBorrowed." + e.getKey())));
            Map<String, Map<Long, Double>> buckets = new HashMap<>();
            json.getAsJsonObject("buckets").entrySet().forEach(team -> {
                Map<Long, Double> b = new HashMap<>();
                team.getValue()
                        .getAsJsonObject()
                        .entrySet()
                        .forEach(e -> b.put(
                                Long.parseLong(e.getKey()),
                                finite(e.getValue().getAsDouble(), "buckets." + team.getKey() + "." + e.getKey())));
                buckets.put(team.getKey(), b);
            });
            return new UsageRecord(
                    bucketMillis,
                    last == null || last.isJsonNull() ? null : Instant.parse(last.getAsString()),
                    borrowed,
                    buckets);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a fair-share usage record: " + e.getMessage(), e);
        }
    }

    private static long nonNegative(long value, String field) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " is negative (" + value + ")");
        }
        return value;
    }

    private static double finite(double value, String field) {
        if (!Double.isFinite(value) || value < 0) {
            throw new IllegalArgumentException(field + " is not a finite non-negative number (" + value + ")");
        }
        return value;
    }
}
