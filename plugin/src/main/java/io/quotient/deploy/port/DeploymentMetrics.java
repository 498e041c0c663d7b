package io.quotient.deploy.port;

import io.quotient.core.model.JobId;
import java.time.Duration;

/** What the use cases report for monitoring (Prometheus in the service); {@link #NONE} ignores everything. */
public interface DeploymentMetrics {

    /** A deploy request was decided (placed or left pending) in {@code latency}. */
    void deployed(JobPhase outcome, Duration latency);

    /** A job was evicted; {@code cause} is a short label such as {@code reclaim} or {@code defragment}. */
    void preempted(JobId job, String cause);

    /** A waiting job was placed by the re-queue. */
    void requeued(JobId job);

    DeploymentMetrics NONE = new DeploymentMetrics() {
        @Override
        public void deployed(JobPhase outcome, Duration latency) {}

        @Override
        public void preempted(JobId job, String cause) {}

        @Override
        public void requeued(JobId job) {}
    };
}
