package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.kubernetes.client.openapi.ApiClient;
import io.quotient.adapters.k8s.records.KubernetesUsageRecordStore;
import io.quotient.core.model.JobId;
import io.quotient.core.model.QuotaState;
import io.quotient.core.usage.JobAllocation;
import io.quotient.core.usage.JobUsageRecord;
import io.quotient.core.usage.PodCounterReading;
import io.quotient.core.usage.PodCounters;
import io.quotient.core.usage.UsageAccumulator;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Usage records stored as ConfigMaps on a real API server: what one leader stored, a service started afresh reads
 * back whole and continues from, without double counting and without a gap beyond max-gap.
 */
@RealKubernetes
class UsageRecordStoreIT {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final JobId NOTEBOOK = new JobId("vision", "notebook");
    private static final UsageAccumulator.Settings SETTINGS = new UsageAccumulator.Settings(Duration.ofMinutes(5));

    private static PodCounterReading reading(int seconds, double busy) {
        return new PodCounterReading(
                "node-a", "pod-1", "GPU-0", NOTEBOOK, new PodCounters(T0, seconds, seconds, busy, 0));
    }

    @Test
    void aRestartedServiceContinuesFromTheStoredRecords(ApiClient client, TestNamespace namespace) {
        JobAllocation whole = new JobAllocation(NOTEBOOK, 1, 1, QuotaState.IN_QUOTA, 81920);
        KubernetesUsageRecordStore first = new KubernetesUsageRecordStore(client, namespace.name());
        UsageAccumulator before = new UsageAccumulator(SETTINGS, first.loadAll());
        before.observe(T0, List.of(whole), List.of());
        first.save(before.observe(T0.plusSeconds(60), List.of(whole), List.of(reading(60, 30))));
        first.save(before.observe(T0.plusSeconds(120), List.of(whole), List.of(reading(120, 60))));

        // the service restarts: a new store and accumulator, the same report seen again, then newer ones
        KubernetesUsageRecordStore second = new KubernetesUsageRecordStore(client, namespace.name());
        List<JobUsageRecord> stored = second.loadAll();
        assertThat(stored).hasSize(1);
        assertThat(stored.get(0)).isEqualTo(before.record(NOTEBOOK).orElseThrow());
        UsageAccumulator after = new UsageAccumulator(SETTINGS, stored);
        after.observe(T0.plusSeconds(150), List.of(whole), List.of(reading(120, 60)));
        second.save(after.observe(T0.plusSeconds(180), List.of(whole), List.of(reading(180, 90))));

        JobUsageRecord record = second.loadAll().get(0);
        assertThat(record.total().allocatedInQuotaGpuSeconds()).isCloseTo(180, within(1e-9));
        assertThat(record.total().busyGpuSeconds()).isCloseTo(90, within(1e-9));
        assertThat(record.total().reservedMemoryMibSeconds()).isCloseTo(81920.0 * 180, within(1e-6));

        assertThat(second.delete(NOTEBOOK)).isTrue();
        assertThat(second.delete(NOTEBOOK)).isFalse();
        assertThat(second.loadAll()).isEmpty();
    }
}
