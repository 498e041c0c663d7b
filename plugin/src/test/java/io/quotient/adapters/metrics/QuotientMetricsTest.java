package io.quotient.adapters.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.scheduling.Plan;
import io.quotient.core.scheduling.PlanAction;
import io.quotient.core.scheduling.Scheduler;
import io.quotient.deploy.JobFixtures;
import io.quotient.deploy.ServiceHarness;
import io.quotient.deploy.port.JobPhase;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class QuotientMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void gaugesFollowTeamsAndClusterAfterARefresh() {
        Scheduler borrowFourOnNodeOne = new Scheduler() {
            @Override
            public Plan schedule(SchedulingSnapshot s, JobSpec job) {
                return new Plan(List.of(new PlanAction.Place(new PlacedJob(
                        job,
                        "gpu-node-1",
                        IntStream.range(0, 4).boxed().toList(),
                        1000,
                        QuotaState.OVER_QUOTA,
                        s.now()))));
            }

            @Override
            public Plan schedulePending(SchedulingSnapshot s) {
                return Plan.EMPTY;
            }

            @Override
            public Plan rebalance(SchedulingSnapshot s, double share) {
                return Plan.EMPTY;
            }
        };
        ServiceHarness h = new ServiceHarness(
                borrowFourOnNodeOne,
                (in, teams) -> new JobSpec(
                        new JobId(in.team(), in.name()), new GpuRequest.WholeGpus(4), 0, 0, null, 0, true, null));
        QuotientGauges gauges = new QuotientGauges(h.reports, registry);
        h.deployments.deploy(JobFixtures.wholeGpus("team-a", "borrow", 4));

        gauges.refresh();

        assertThat(registry.get("quotient.team.guaranteed.gpus")
                        .tag("team", "team-a")
                        .gauge()
                        .value())
                .isEqualTo(20);
        assertThat(registry.get("quotient.team.allocated.gpus")
                        .tag("team", "team-a")
                        .gauge()
                        .value())
                .isEqualTo(4);
        // 4 of a guarantee of 20: in quota, whatever the plan recorded at placement
        assertThat(registry.get("quotient.team.borrowed.gpus")
                        .tag("team", "team-a")
                        .gauge()
                        .value())
                .isZero();
        assertThat(registry.get("quotient.team.in.quota.gpus")
                        .tag("team", "team-a")
                        .gauge()
                        .value())
                .isEqualTo(4);
        assertThat(registry.get("quotient.team.fair.share.gpus")
                        .tag("team", "team-a")
                        .gauge()
                        .value())
                .isEqualTo(4);
        assertThat(registry.get("quotient.team.pending.jobs")
                        .tag("team", "team-b")
                        .gauge()
                        .value())
                .isZero();
        assertThat(registry.get("quotient.cluster.free.gpus").gauge().value()).isEqualTo(36);
        assertThat(registry.get("quotient.cluster.whole.free.gpus").gauge().value())
                .isEqualTo(36);
        assertThat(registry.get("quotient.cluster.fragmentation.percent")
                        .gauge()
                        .value())
                .isGreaterThanOrEqualTo(0);
    }

    @Test
    void countsPreemptionsByCauseRequeuesAndDeployLatency() {
        MicrometerDeploymentMetrics metrics = new MicrometerDeploymentMetrics(registry);
        JobId job = new JobId("team-a", "j");

        metrics.preempted(job, "reclaim");
        metrics.preempted(job, "reclaim");
        metrics.preempted(job, "defragment");
        metrics.requeued(job);
        metrics.deployed(JobPhase.PLACED, Duration.ofMillis(12));

        assertThat(registry.get("quotient.preemptions")
                        .tag("cause", "reclaim")
                        .counter()
                        .count())
                .isEqualTo(2);
        assertThat(registry.get("quotient.preemptions")
                        .tag("cause", "defragment")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("quotient.requeues")
                        .tag("team", "team-a")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("quotient.deploy.latency")
                        .tag("outcome", "Placed")
                        .timer()
                        .count())
                .isEqualTo(1);
    }
}
