package io.quotient.deploy.port;

import io.quotient.core.model.JobId;

/** A record with this team and name exists already; nothing was created (REST: 409). */
public final class JobAlreadyExistsException extends RuntimeException {

    private final JobId job;

    public JobAlreadyExistsException(JobId job) {
        super("job " + job.name() + " already exists in team " + job.team()
                + "; choose another name or delete the existing job first");
        this.job = job;
    }

    public JobId job() {
        return job;
    }
}
