package io.quotient.deploy.port;

import io.quotient.core.model.JobId;
import io.quotient.core.usage.JobUsageRecord;
import java.util.Collection;
import java.util.List;

/**
 * Durable per-job usage records ({@link JobUsageRecord}: per-day totals, {@code asOf} and pod counter baselines).
 * Each record is written whole, in one write, so totals and the baselines they were taken from never disagree:
 * that is what lets a new leader or a restarted service continue without double counting. Only the leader writes.
 * Implementations are thread-safe.
 */
public interface UsageRecordStore {

    /** Every stored record. */
    List<JobUsageRecord> loadAll();

    /** Stores each record whole, replacing the job's earlier one. */
    void save(Collection<JobUsageRecord> records);

    /** Removes a job's record; returns false when there was none. */
    boolean delete(JobId job);
}
