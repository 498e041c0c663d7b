package io.quotient.deploy;

import io.quotient.core.model.JobId;

/**
 * A decision write was fenced: right before it, this replica could no longer show a Lease renewal recent enough to
 * be the only leader (it may have been paused past its lease, and another replica may decide now). Nothing more of
 * the plan is written; the leader in office rebuilds from the API server.
 */
public final class LeadershipLostException extends RuntimeException {

    public LeadershipLostException(JobId job, String write) {
        super("not writing " + write + " for job " + job + ": this replica is no longer the leader (no Lease renewal"
                + " within the renew deadline); the current leader decides it from the records");
    }
}
