package io.quotient.adapters.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quotient.core.model.JobId;
import io.quotient.deploy.port.DeploymentMetrics;
import io.quotient.deploy.port.JobPhase;
import java.time.Duration;

/**
 * The use cases' events as Prometheus meters: {@code quotient_deploy_latency_seconds{outcome}},
 * {@code quotient_preemptions_total{team,cause}}, {@code quotient_requeues_total{team}}.
 */
public final class MicrometerDeploymentMetrics implements DeploymentMetrics {

    private final MeterRegistry registry;

    public MicrometerDeploymentMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void deployed(JobPhase outcome, Duration latency) {
        Timer.builder("quotient.deploy.latency")
                .description("time from a deploy request to its decision (placed or pending)")
                .tag("outcome", outcome.wireName())
                .publishPercentiles(0.5, 0.99)
                .register(registry)
                .record(latency);
    }

    @Override
    public void preempted(JobId job, String cause) {
        Counter.builder("quotient.preemptions")
                .description("jobs evicted, by team and cause (reclaim: a team took back its guarantee;"
                        + " defragment: moved to free whole GPUs)")
                .tag("team", job.team())
                .tag("cause", cause)
                .register(registry)
                .increment();
    }

    @Override
    public void requeued(JobId job) {
        Counter.builder("quotient.requeues")
                .description("waiting jobs placed by the re-queue")
                .tag("team", job.team())
                .register(registry)
                .increment();
    }
}
