package io.quotient.deploy.port;

import io.quotient.core.model.JobId;
import java.util.List;
import java.util.Optional;

/**
 * Durable job records (Kubernetes: {@code GpuJob} custom resources; embedded: a map). Implementations are
 * thread-safe. Records returned carry the store's current {@link JobRecord#version()}.
 *
 * <p><b>Read-your-writes:</b> {@link #find}, {@link #list} and {@link #listAll} reflect every write this store
 * instance has completed, immediately (an informer-backed store overlays its own writes until the cache catches
 * up). Decisions are built from these reads; a lagging view would book the same GPU twice.
 */
public interface JobRecordStore {

    /**
     * Stores a new record with its status (undecided, or its first decision, written together) and returns it
     * with its version; the version given is ignored. A record created {@link JobStatus#undecided()} may cost a
     * store less (Kubernetes: the create alone, no status write).
     *
     * @throws JobAlreadyExistsException when a record with the same team and name exists; nothing is changed
     */
    JobRecord create(JobRecord record);

    Optional<JobRecord> find(JobId job);

    /** The records of one team, in creation order. */
    List<JobRecord> list(String team);

    /** Every record, in creation order. */
    List<JobRecord> listAll();

    /**
     * Replaces the status of {@code record}, and its queue position ({@link JobRecord#queuedAt}, stored with the
     * status), if the stored version still equals {@code record.version()}.
     *
     * @return the stored record with its new version
     * @throws StaleRecordException when the record changed or was deleted since it was read; nothing is changed
     */
    JobRecord updateStatus(JobRecord record, JobStatus status);

    /** Removes the record; returns false when there was none. */
    boolean delete(JobId job);

    /**
     * Claims the records for a new leader term before that leader decides anything: every record not finished is read
     * as stored (not from a cache) and its status rewritten with {@code term}, and every later status write carries the
     * term. A write an earlier leader decided but had not sent when it lost the office (a replica paused between its
     * last leadership check and the write, for longer than its lease) carries an older version, so it fails instead of
     * landing on capacity the new leader may have given away; and the new leader's reads start from every record as
     * stored. A store that only one process ever writes has nothing to claim.
     *
     * @return how many records were claimed
     */
    default int claimForTerm(String term) {
        return 0;
    }
}
