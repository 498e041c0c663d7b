package io.quotient.adapters.k8s.records;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.quotient.core.model.JobId;
import io.quotient.core.usage.JobUsageRecord;
import io.quotient.core.usage.PodCounters;
import io.quotient.core.usage.UsageCounters;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;

/**
 * A {@link JobUsageRecord} as the JSON kept in its ConfigMap (one object: per-day and per-hour counters, asOf,
 * baselines), built as a tree and serialised, never pasted. Reading is strict: a record that does not parse is
 * reported, not guessed; only {@code hours} may be missing (a record stored before hours were kept).
 */
final class UsageRecordCodec {

    static final int VERSION = 1;

    private UsageRecordCodec() {}

    static String encode(JobUsageRecord record) {
        JsonObject json = new JsonObject();
        json.addProperty("version", VERSION);
        json.addProperty("team", record.job().team());
        json.addProperty("job", record.job().name());
        json.addProperty("trackingSince", record.trackingSince().toString());
        json.addProperty("asOf", record.asOf().toString());
        JsonObject days = new JsonObject();
        record.days().forEach((day, c) -> days.add(day.toString(), counters(c)));
        json.add("days", days);
        JsonObject baselines = new JsonObject();
        record.baselines().forEach((key, b) -> baselines.add(key, baseline(b)));
        json.add("baselines", baselines);
        JsonObject hours = new JsonObject();
        record.hours().forEach((hour, c) -> hours.add(hour.toString(), counters(c)));
        json.add("hours", hours);
        return json.toString();
    }

    /** @throws IllegalArgumentException when the text is not a usage record this version can read */
    static JobUsageRecord decode(String text) {
        try {
            JsonObject json = JsonParser.parseString(text).getAsJsonObject();
            if (json.get("version").getAsInt() != VERSION) {
                throw new IllegalArgumentException(
                        "usage record version " + json.get("version") + ", expected " + VERSION);
            }
            Map<LocalDate, UsageCounters> days = new HashMap<>();
            json.getAsJsonObject("days")
                    .entrySet()
                    .forEach(e -> days.put(
                            LocalDate.parse(e.getKey()), counters(e.getValue().getAsJsonObject())));
            Map<String, PodCounters> baselines = new HashMap<>();
            json.getAsJsonObject("baselines")
                    .entrySet()
                    .forEach(
                            e -> baselines.put(e.getKey(), baseline(e.getValue().getAsJsonObject())));
            // records stored before hourly counters were kept have none: their hours start empty
            Map<Instant, UsageCounters> hours = new HashMap<>();
            if (json.has("hours")) {
                json.getAsJsonObject("hours")
                        .entrySet()
                        .forEach(e -> hours.put(
                                Instant.parse(e.getKey()), counters(e.getValue().getAsJsonObject())));
            }
            return new JobUsageRecord(
                    new JobId(json.get("team").getAsString(), json.get("job").getAsString()),
                    Instant.parse(json.get("trackingSince").getAsString()),
                    Instant.parse(json.get("asOf").getAsString()),
                    days,
                    baselines,
                    hours);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a usage record: " + e.getMessage(), e);
        }
    }

    private static JsonObject counters(UsageCounters c) {
        JsonObject json = new JsonObject();
        json.addProperty("allocatedInQuotaGpuSeconds", c.allocatedInQuotaGpuSeconds());
        json.addProperty("allocatedBorrowedGpuSeconds", c.allocatedBorrowedGpuSeconds());
        json.addProperty("allocatedDeviceSeconds", c.allocatedDeviceSeconds());
        json.addProperty("reservedMemoryMibSeconds", c.reservedMemoryMibSeconds());
        json.addProperty("busyGpuSeconds", c.busyGpuSeconds());
        json.addProperty("presentSeconds", c.presentSeconds());
        json.addProperty("measuredSeconds", c.measuredSeconds());
        json.addProperty("usedMemoryMibSeconds", c.usedMemoryMibSeconds());
        return json;
    }

    private static UsageCounters counters(JsonObject json) {
        return new UsageCounters(
                json.get("allocatedInQuotaGpuSeconds").getAsDouble(),
                json.get("allocatedBorrowedGpuSeconds").getAsDouble(),
                json.get("allocatedDeviceSeconds").getAsDouble(),
                json.get("reservedMemoryMibSeconds").getAsDouble(),
                json.get("busyGpuSeconds").getAsDouble(),
                json.get("presentSeconds").getAsDouble(),
                json.get("measuredSeconds").getAsDouble(),
                json.get("usedMemoryMibSeconds").getAsDouble());
    }

    private static JsonObject baseline(PodCounters b) {
        JsonObject json = new JsonObject();
        json.addProperty("countingSince", b.countingSince().toString());
        json.addProperty("presentSeconds", b.presentSeconds());
        json.addProperty("measuredSeconds", b.measuredSeconds());
        json.addProperty("busyGpuSeconds", b.busyGpuSeconds());
        json.addProperty("memoryMibSeconds", b.memoryMibSeconds());
        return json;
    }

    private static PodCounters baseline(JsonObject json) {
        return new PodCounters(
                Instant.parse(json.get("countingSince").getAsString()),
                json.get("presentSeconds").getAsDouble(),
                json.get("measuredSeconds").getAsDouble(),
                json.get("busyGpuSeconds").getAsDouble(),
                json.get("memoryMibSeconds").getAsDouble());
    }
}
