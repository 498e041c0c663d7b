package io.quotient.adapters.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotient.core.usage.JobUsageRecord;
import io.quotient.core.usage.UsageTotals;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Showback as Prometheus counters, {@code quotient_gpu_allocated_seconds_total} and
 * {@code quotient_gpu_used_seconds_total} with labels {@code team}, {@code department} (empty outside any
 * department) and {@code quota_state} ({@code in_quota}, {@code borrowed}). Their values are the all-time totals
 * of the usage records ({@link UsageTotals}), which are stored, so after a restart or a leader change the counters
 * continue from the stored totals instead of restarting at zero. Refreshed on a schedule, not per scrape.
 *
 * <p>A published value never decreases while the process runs: a counter that went down would read to Prometheus
 * as a reset and count its whole value again. (Today's used share by quota state can shift slightly; the counter
 * then holds its value until the total passes it.)
 */
public final class UsageMeters {

    private final MeterRegistry registry;
    private final Supplier<Collection<JobUsageRecord>> records;
    private final Supplier<Map<String, String>> departments;
    private final Map<UsageTotals.Key, double[]> values = new ConcurrentHashMap<>();

    /**
     * @param records     the usage records as they stand
     * @param departments each team's department name
     */
    public UsageMeters(
            MeterRegistry registry,
            Supplier<Collection<JobUsageRecord>> records,
            Supplier<Map<String, String>> departments) {
        this.registry = registry;
        this.records = records;
        this.departments = departments;
    }

    /** Recomputes the totals from the records; registers the series of teams seen for the first time. */
    public void refresh() {
        UsageTotals.of(records.get(), departments.get()).forEach((key, seconds) -> {
            double[] value = values.computeIfAbsent(key, this::register);
            synchronized (value) {
                value[0] = Math.max(value[0], seconds.allocated());
                value[1] = Math.max(value[1], seconds.used());
            }
        });
    }

    private double[] register(UsageTotals.Key key) {
        double[] value = new double[2];
        counter(
                "quotient.gpu.allocated.seconds",
                "GPUs held (fractions count) x seconds, from the placements",
                key,
                value,
                0);
        counter(
                "quotient.gpu.used.seconds",
                "allocated GPU-seconds x measured utilization (from the node enforcers)",
                key,
                value,
                1);
        return value;
    }

    private void counter(String name, String description, UsageTotals.Key key, double[] value, int index) {
        FunctionCounter.builder(name, value, v -> {
                    synchronized (v) {
                        return v[index];
                    }
                })
                .description(description)
                .tag("team", key.team())
                .tag("department", key.department())
                .tag("quota_state", key.state().label())
                .register(registry);
    }
}
