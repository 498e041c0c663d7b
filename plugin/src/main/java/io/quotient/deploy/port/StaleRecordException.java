package io.quotient.deploy.port;

import io.quotient.core.model.JobId;

/**
 * The record changed (or vanished) since it was read: the write was refused so that no decision is based on a
 * stale view. Callers re-read and decide again.
 */
public final class StaleRecordException extends RuntimeException {

    private final JobId job;

    public StaleRecordException(JobId job, String detail) {
        super("record of job " + job + " changed since it was read (" + detail + "); re-read it and retry");
        this.job = job;
    }

    public JobId job() {
        return job;
    }
}
