package io.quotient.deploy;

import io.quotient.core.model.JobId;

/** No job of that name in that team (REST: 404). */
public final class JobNotFoundException extends RuntimeException {

    public JobNotFoundException(JobId job) {
        super("job " + job.name() + " does not exist in team " + job.team()
                + "; list the team's jobs to see their names");
    }
}
