package io.quotient.adapters.memory;

import io.quotient.core.model.JobId;
import io.quotient.core.usage.JobUsageRecord;
import io.quotient.deploy.port.UsageRecordStore;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Usage records in a map, for the embedded cluster and tests: they survive a leader change, not the process. */
public final class InMemoryUsageRecordStore implements UsageRecordStore {

    private final Map<JobId, JobUsageRecord> records = new LinkedHashMap<>();

    @Override
    public synchronized List<JobUsageRecord> loadAll() {
        return List.copyOf(records.values());
    }

    @Override
    public synchronized void save(Collection<JobUsageRecord> changed) {
        changed.forEach(r -> records.put(r.job(), r));
    }

    @Override
    public synchronized boolean delete(JobId job) {
        return records.remove(job) != null;
    }
}
