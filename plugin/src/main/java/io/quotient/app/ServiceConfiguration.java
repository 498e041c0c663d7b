package io.quotient.app;

import io.micrometer.core.instrument.MeterRegistry;
import io.quotient.adapters.hook.InProcessDeployHook;
import io.quotient.adapters.metrics.MicrometerDeploymentMetrics;
import io.quotient.adapters.metrics.QuotientGauges;
import io.quotient.adapters.quota.TeamsFileSource;
import io.quotient.core.placement.ClusterFittedWorkload;
import io.quotient.core.scheduling.FairShareSettings;
import io.quotient.core.scheduling.Scheduler;
import io.quotient.deploy.AssumedPlacements;
import io.quotient.deploy.Decider;
import io.quotient.deploy.DecisionLock;
import io.quotient.deploy.DecisionService;
import io.quotient.deploy.DeploymentService;
import io.quotient.deploy.JobTransitions;
import io.quotient.deploy.PlanApplier;
import io.quotient.deploy.QuotaLabels;
import io.quotient.deploy.Reconciler;
import io.quotient.deploy.Reports;
import io.quotient.deploy.RequestValidator;
import io.quotient.deploy.ReservationKeeper;
import io.quotient.deploy.SnapshotBuilder;
import io.quotient.deploy.UsageAccounting;
import io.quotient.deploy.WaitNotes;
import io.quotient.deploy.port.ClusterObserver;
import io.quotient.deploy.port.DeploymentMetrics;
import io.quotient.deploy.port.FairShareUsageStore;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.LeadershipGate;
import io.quotient.deploy.port.TeamsSource;
import io.quotient.deploy.port.WorkloadGateway;
import java.time.Clock;
import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/**
 * The application layer wired on whichever cluster mode provides the ports (embedded or Kubernetes).
 */
@Configuration(proxyBeanMethods = false)
public class ServiceConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    /** The teams file when one is configured (re-read on change), else the cluster mode's teams. */
    @Bean
    @Primary
    TeamsSource teamsSource(QuotientProperties properties, ClusterDefaultTeams clusterTeams, Clock clock) {
        if (properties.teamsFile() != null) {
            return new TeamsFileSource(
                    properties.teamsFile(), properties.teamsPollInterval(), clock, clusterTeams.sharedNamespace());
        }
        return clusterTeams.source();
    }

    @Bean
    DeploymentMetrics deploymentMetrics(MeterRegistry registry) {
        return new MicrometerDeploymentMetrics(registry);
    }

    /**
     * The teams' usage history behind decayed fair shares ({@code quotient.scheduling.fair-share}); with a half-life
     * of 0 it records nothing and fair shares are instantaneous.
     *
     * @throws IllegalArgumentException naming the setting when the half-life or window is invalid
     */
    @Bean(destroyMethod = "flush")
    UsageAccounting usageAccounting(
            QuotientProperties properties, Clock clock, FairShareUsageStore store, LeadershipGate leadership) {
        QuotientProperties.FairShare f = properties.scheduling().fairShare();
        return new UsageAccounting(
                new FairShareSettings(f.usageHalfLife(), f.window()), clock, store, leadership, f.saveInterval());
    }

    @Bean
    DecisionLock decisionLock() {
        return new DecisionLock();
    }

    @Bean
    ReservationKeeper reservationKeeper(JobRecordStore store, ClusterObserver cluster, WorkloadGateway gateway) {
        return new ReservationKeeper(store, cluster, gateway);
    }

    @Bean
    JobTransitions jobTransitions(
            JobRecordStore store,
            WorkloadGateway gateway,
            ReservationKeeper reservations,
            DeploymentMetrics metrics,
            QuotientProperties properties,
            Clock clock,
            LeadershipGate leadership) {
        return new JobTransitions(
                store, gateway, reservations, metrics, properties.scheduling().stopGrace(), clock, leadership);
    }

    /** The notes the idle pass leaves on waiting jobs' reasons, written with them by the re-queue. */
    @Bean
    WaitNotes waitNotes() {
        return new WaitNotes();
    }

    @Bean
    Decider decider(
            JobRecordStore store,
            ClusterObserver cluster,
            TeamsSource teams,
            Scheduler scheduler,
            JobTransitions transitions,
            LeadershipGate leadership,
            Clock clock,
            UsageAccounting usage,
            WaitNotes notes) {
        // a placement write is one API call with a 30 s read timeout: waiting a little longer covers it
        return new Decider(
                store,
                new SnapshotBuilder(cluster, teams, clock, usage),
                scheduler,
                new PlanApplier(store, transitions, leadership, notes),
                new AssumedPlacements(Duration.ofSeconds(35)),
                transitions);
    }

    @Bean
    DecisionService decisionService(
            JobRecordStore store,
            ClusterObserver cluster,
            WorkloadGateway gateway,
            JobTransitions transitions,
            ReservationKeeper reservations,
            Decider decider,
            DecisionLock lock,
            LeadershipGate leadership,
            QuotientProperties properties,
            Clock clock,
            TeamsSource teams) {
        Reconciler reconciler = new Reconciler(
                store,
                cluster,
                gateway,
                transitions,
                reservations,
                properties.scheduling().stopGrace(),
                properties.scheduling().podArrivalGrace(),
                clock);
        return new DecisionService(
                reconciler,
                decider,
                transitions,
                lock,
                leadership,
                new QuotaLabels(
                        store, teams, transitions, properties.schedules().requeueMaxRelabels()));
    }

    @Bean
    DeploymentService deploymentService(
            JobRecordStore store,
            TeamsSource teams,
            WorkloadGateway gateway,
            ClusterObserver cluster,
            RequestValidator validator,
            DecisionService decisions,
            DeploymentMetrics metrics,
            Clock clock) {
        return new DeploymentService(store, teams, gateway, cluster, validator, decisions, metrics, clock);
    }

    @Bean
    InProcessDeployHook deployHook(DeploymentService deployments) {
        return new InProcessDeployHook(deployments);
    }

    @Bean
    Reports reports(
            JobRecordStore store,
            ClusterObserver cluster,
            TeamsSource teams,
            ClusterFittedWorkload targetWorkload,
            UsageAccounting usage) {
        return new Reports(store, cluster, teams, targetWorkload, usage);
    }

    @Bean
    QuotientGauges quotientGauges(Reports reports, MeterRegistry registry) {
        return new QuotientGauges(reports, registry);
    }
}
