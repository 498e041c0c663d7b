package io.quotient.deploy.port;

import io.quotient.core.model.JobId;
import java.time.Instant;
import java.util.List;

/**
 * The events recorded on jobs lately (Kubernetes: the Events on GpuJobs; embedded: the in-memory log), for people
 * who watch what the scheduler did: placed, preempted, re-queued, moved. Reads never block on the network for long
 * and may lag; they change nothing.
 */
public interface EventHistory {

    /** One event on a job; {@code job} is null when the job it was about is gone and its name unknown. */
    record JobEvent(JobId job, String object, String reason, String message, Instant at) {}

    /** At most {@code limit} events, the newest last. */
    List<JobEvent> recent(int limit);
}
