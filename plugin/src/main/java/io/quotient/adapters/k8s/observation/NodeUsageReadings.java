package io.quotient.adapters.k8s.observation;

import io.quotient.core.model.JobId;
import io.quotient.core.usage.PodCounterReading;
import io.quotient.core.usage.PodCounters;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The pod counters of one node's report, as accounting takes them. The job of each pod comes from the service's own
 * view of that pod ({@code jobOf}), never from the labels the report repeats: a report only speaks for pods that
 * the service sees running on that node. Entries the service cannot trust (a missing or negative total, a
 * malformed {@code countingSince}, more measured than present time) are left out, so a broken enforcer costs a
 * pod's figures, never the accounts.
 */
final class NodeUsageReadings {

    private NodeUsageReadings() {}

    static List<PodCounterReading> of(
            String node, GpuReport report, Function<GpuReport.PodUsage, Optional<JobId>> jobOf) {
        if (report.usage() == null || report.usage().pods() == null) {
            return List.of();
        }
        List<PodCounterReading> readings = new ArrayList<>();
        for (GpuReport.PodUsage pod : report.usage().pods()) {
            if (pod == null || pod.uid() == null || pod.gpus() == null) {
                continue;
            }
            Optional<JobId> job = jobOf.apply(pod);
            if (job.isEmpty()) {
                continue;
            }
            for (GpuReport.PodGpu gpu : pod.gpus()) {
                counters(gpu)
                        .ifPresent(c -> readings.add(new PodCounterReading(node, pod.uid(), gpu.uuid(), job.get(), c)));
            }
        }
        return readings;
    }

    private static Optional<PodCounters> counters(GpuReport.PodGpu gpu) {
        if (gpu == null
                || gpu.uuid() == null
                || gpu.countingSince() == null
                || !valid(gpu.presentSeconds())
                || !valid(gpu.measuredSeconds())
                || !valid(gpu.busyGpuSeconds())
                || gpu.memoryMibSeconds() == null
                || gpu.memoryMibSeconds() < 0
                || gpu.measuredSeconds() > gpu.presentSeconds()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new PodCounters(
                    Instant.parse(gpu.countingSince()),
                    gpu.presentSeconds(),
                    gpu.measuredSeconds(),
                    gpu.busyGpuSeconds(),
                    gpu.memoryMibSeconds()));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static boolean valid(Double value) {
        return value != null && Double.isFinite(value) && value >= 0;
    }
}
