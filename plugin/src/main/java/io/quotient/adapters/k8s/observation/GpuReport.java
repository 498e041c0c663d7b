package io.quotient.adapters.k8s.observation;

import com.google.gson.Gson;
import com.google.gson.JsonParseException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

/**
 * The node enforcer's report, the JSON in the node annotation {@code quotient.io/gpu-report} (docs/design.md,
 * "Conventions"). Fields may be null when the enforcer left them out ({@code usage} is absent from enforcers older
 * than it).
 */
record GpuReport(Boolean ready, String reason, String updatedAt, String driverVersion, List<Gpu> gpus, Usage usage) {

    static final String ANNOTATION = "quotient.io/gpu-report";
    private static final Gson GSON = new Gson();

    record Gpu(Integer index, String uuid, String model, Long memoryTotalMib, Long memoryUsedMib) {}

    /** What the node's pods used of its GPUs (docs/usage.md): the report window's means, and running totals. */
    record Usage(String windowStart, String windowEnd, Integer samples, List<PodUsage> pods) {}

    /** One pod; {@code team} and {@code job} are its labels as the enforcer read them (informative only). */
    record PodUsage(String namespace, String name, String uid, String team, String job, List<PodGpu> gpus) {}

    /** One pod on one GPU or MIG instance. */
    record PodGpu(
            String uuid,
            String source,
            Double utilizationPercent,
            Long memoryUsedMib,
            Long memoryPeakMib,
            String countingSince,
            Double presentSeconds,
            Double measuredSeconds,
            Double busyGpuSeconds,
            Long memoryMibSeconds) {}

    /** The report in the annotation value; empty when absent or not readable JSON. */
    static Optional<GpuReport> parse(String json) {
        if (json == null || json.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(GSON.fromJson(json, GpuReport.class));
        } catch (JsonParseException e) {
            return Optional.empty();
        }
    }

    /** Ready, and updated no longer than {@code freshness} ago (a silent enforcer may have died). */
    boolean readyAt(Instant now, Duration freshness) {
        if (!Boolean.TRUE.equals(ready) || updatedAt == null) {
            return false;
        }
        try {
            Instant updated = Instant.parse(updatedAt);
            return !updated.plus(freshness).isBefore(now);
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    /** The memory of the node's first GPU as the enforcer measured it, when reported. */
    Optional<Long> gpuMemoryMib() {
        return gpus == null || gpus.isEmpty() || gpus.get(0).memoryTotalMib() == null
                ? Optional.empty()
                : Optional.of(gpus.get(0).memoryTotalMib());
    }
}
