package io.quotient.adapters.memory;

import io.quotient.core.model.JobId;
import io.quotient.deploy.port.JobAlreadyExistsException;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.StaleRecordException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Job records in a map, for the embedded cluster and tests. Versions count writes, so optimistic
 * concurrency behaves as it does on the API server. Lost when the process ends.
 */
public final class InMemoryJobRecordStore implements JobRecordStore {

    private final Map<JobId, JobRecord> records = new LinkedHashMap<>();
    private long writes;

    @Override
    public synchronized JobRecord create(JobRecord record) {
        if (records.containsKey(record.id())) {
            throw new JobAlreadyExistsException(record.id());
        }
        JobRecord stored = record.withVersion(nextVersion());
        records.put(record.id(), stored);
        return stored;
    }

    @Override
    public synchronized Optional<JobRecord> find(JobId job) {
        return Optional.ofNullable(records.get(job));
    }

    @Override
    public synchronized List<JobRecord> list(String team) {
        return records.values().stream().filter(r -> r.id().team().equals(team)).toList();
    }

    @Override
    public synchronized List<JobRecord> listAll() {
        return List.copyOf(records.values());
    }

    @Override
    public synchronized JobRecord updateStatus(JobRecord record, JobStatus status) {
        JobRecord current = records.get(record.id());
        if (current == null) {
            throw new StaleRecordException(record.id(), "it was deleted");
        }
        if (!current.version().equals(record.version())) {
            throw new StaleRecordException(
                    record.id(), "version " + record.version() + " was read, " + current.version() + " is stored");
        }
        JobRecord stored =
                current.withStatus(status).withQueuedAt(record.queuedAt()).withVersion(nextVersion());
        records.put(record.id(), stored);
        return stored;
    }

    @Override
    public synchronized boolean delete(JobId job) {
        return records.remove(job) != null;
    }

    private String nextVersion() {
        return Long.toString(++writes);
    }
}
