package io.quotient.enforcer.app;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.quotient.enforcer.core.ContainerUsage;
import io.quotient.enforcer.core.CycleReport;
import io.quotient.enforcer.core.EnforcementListener;
import io.quotient.enforcer.core.GpuDevice;
import io.quotient.enforcer.core.KillDecision;
import io.quotient.enforcer.core.ProcessSignaller;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Prometheus metrics: per container and GPU (used, request, limit, loaned bytes), per GPU (total,
 * used, utilization), kills by reason, and whether NVML is readable. Gauges are registered once per series and
 * removed when the series disappears, so a cycle only updates numbers.
 */
final class EnforcerMetrics implements EnforcementListener {

    private final MeterRegistry registry;
    private final Map<Series, AtomicLong> values = new ConcurrentHashMap<>();
    private final Map<Series, Meter.Id> meters = new HashMap<>();
    private final AtomicLong nvmlReady = new AtomicLong();

    private record Series(String name, Tags tags) {}

    EnforcerMetrics(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("quotient.enforcer.nvml.ready", nvmlReady, AtomicLong::get)
                .description("1 when the last cycle could read the GPUs through NVML")
                .register(registry);
    }

    @Override
    public void onKill(KillDecision decision, ProcessSignaller.Result result, boolean forced) {
        Counter.builder("quotient.enforcer.kills")
                .description("GPU processes the enforcer decided to kill")
                .tags(
                        "reason",
                        decision.reason().eventReason(),
                        "signal",
                        forced ? "SIGKILL" : "SIGTERM",
                        "result",
                        result.name(),
                        "namespace",
                        decision.container().namespace())
                .register(registry)
                .increment();
    }

    @Override
    public synchronized void onCycle(CycleReport report) {
        nvmlReady.set(report.gpusAvailable() ? 1 : 0);
        if (!report.gpusAvailable()) {
            return; // keep the last figures: unknown is not zero
        }
        Set<Series> seen = new HashSet<>();
        for (GpuDevice gpu : report.sample().get().devices()) {
            Tags tags = Tags.of("gpu", gpu.uuid(), "model", gpu.model(), "index", Integer.toString(gpu.index()));
            set(seen, "quotient.gpu.memory.total.bytes", tags, gpu.totalBytes());
            set(seen, "quotient.gpu.memory.used.bytes", tags, gpu.usedBytes());
            if (gpu.utilizationPercent() >= 0) { // not reported for MIG instances
                set(seen, "quotient.gpu.utilization", tags, gpu.utilizationPercent(), "percent");
            }
        }
        for (ContainerUsage usage : report.plan().usage()) {
            Tags tags = Tags.of(
                    "namespace",
                    usage.container().namespace(),
                    "pod",
                    usage.container().pod(),
                    "container",
                    usage.container().container(),
                    "gpu",
                    usage.gpuUuid());
            set(seen, "quotient.container.gpu.memory.used.bytes", tags, usage.usedBytes());
            set(seen, "quotient.container.gpu.memory.request.bytes", tags, usage.requestBytes());
            set(seen, "quotient.container.gpu.memory.limit.bytes", tags, usage.limitBytes());
            set(seen, "quotient.container.gpu.memory.loaned.bytes", tags, usage.loanedBytes());
        }
        for (Series gone : List.copyOf(values.keySet())) {
            if (!seen.contains(gone)) {
                values.remove(gone);
                registry.remove(meters.remove(gone));
            }
        }
    }

    private void set(Set<Series> seen, String name, Tags tags, long value) {
        set(seen, name, tags, value, "bytes");
    }

    private void set(Set<Series> seen, String name, Tags tags, long value, String unit) {
        Series series = new Series(name, tags);
        seen.add(series);
        AtomicLong holder = values.get(series);
        if (holder == null) {
            AtomicLong created = new AtomicLong(value);
            values.put(series, created);
            meters.put(
                    series,
                    Gauge.builder(name, created, AtomicLong::get)
                            .tags(tags)
                            .baseUnit(unit)
                            .register(registry)
                            .getId());
            return;
        }
        holder.set(value);
    }
}
