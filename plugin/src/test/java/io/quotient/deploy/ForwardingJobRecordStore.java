package io.quotient.deploy;

import io.quotient.core.model.JobId;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.JobStatus;
import java.util.List;
import java.util.Optional;

/** Records that forward every call to other records; tests override only the calls they watch. */
abstract class ForwardingJobRecordStore implements JobRecordStore {

    private final JobRecordStore delegate;

    ForwardingJobRecordStore(JobRecordStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public JobRecord create(JobRecord record) {
        return delegate.create(record);
    }

    @Override
    public Optional<JobRecord> find(JobId job) {
        return delegate.find(job);
    }

    @Override
    public List<JobRecord> list(String team) {
        return delegate.list(team);
    }

    @Override
    public List<JobRecord> listAll() {
        return delegate.listAll();
    }

    @Override
    public JobRecord updateStatus(JobRecord record, JobStatus status) {
        return delegate.updateStatus(record, status);
    }

    @Override
    public boolean delete(JobId job) {
        return delegate.delete(job);
    }
}
