package io.quotient.app;

import io.quotient.core.placement.ClusterFittedWorkload;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.placement.WorkloadLearner;
import io.quotient.core.request.JobSpecValidator;
import io.quotient.core.scheduling.ObservedJobs;
import io.quotient.core.scheduling.QuotaScheduler;
import io.quotient.core.scheduling.ReclaimSettings;
import io.quotient.core.scheduling.Scheduler;
import io.quotient.deploy.RequestValidator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The scheduling core in the service: the scheduler with the configured placement policy, and the request validator. */
@Configuration(proxyBeanMethods = false)
public class SchedulerConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(SchedulerConfiguration.class);

    /**
     * The expected job shapes are learned from the jobs the scheduler sees (running and submitted, with their model
     * constraints); until it has seen a few hundred, the built-in typical workload stands in.
     */
    @Bean
    WorkloadLearner workloadLearner() {
        return new WorkloadLearner(TargetWorkload.typical());
    }

    /**
     * The learned workload is fitted to the nodes of each snapshot (CPU per GPU capped at the median GPU node's), so
     * it also packs on clusters with few cores per GPU.
     */
    @Bean
    ClusterFittedWorkload targetWorkload(WorkloadLearner workloadLearner) {
        return ClusterFittedWorkload.following(workloadLearner::current);
    }

    /** The scheduler and the fragmentation report judge against the same fitted workload (one fitting, one cache). */
    @Bean
    Scheduler scheduler(
            QuotientProperties properties, ClusterFittedWorkload targetWorkload, WorkloadLearner workloadLearner) {
        QuotientProperties.Scheduling scheduling = properties.scheduling();
        ReclaimSettings reclaim = new ReclaimSettings(
                Math.round(scheduling.fairShareMinGainGpus() * 1000), scheduling.maxMovesPerDecision());
        QuotaScheduler scheduler = new QuotaScheduler(
                scheduling.placementPolicy(),
                scheduling.seed(),
                targetWorkload,
                reclaim,
                new ObservedJobs(workloadLearner));
        WorkloadLearner.Settings learning = WorkloadLearner.Settings.DEFAULT;
        LOG.info(
                "scheduler: placement policy {}, seed {}, target workload learned from the last {} jobs seen (typical"
                        + " until {} were seen), fitted to the cluster's CPU per GPU; fair-share reclaim from {} GPUs below the"
                        + " share, at most {} moves per decision",
                scheduler.policyName(),
                scheduling.seed(),
                learning.window(),
                learning.minimumSeen(),
                scheduling.fairShareMinGainGpus(),
                scheduling.maxMovesPerDecision());
        return scheduler;
    }

    /**
     * Validates requests without requiring the team to be configured: the deployment service refuses unknown teams
     * itself (404) before validating, and stored jobs of a team removed since must still be read (their pods hold
     * GPUs that the scheduler has to count). The minimum runtime is bounded by the cluster's maximum (a team's lower
     * one is checked on new deploys only, so that lowering it never fails a stored job: TeamLimits).
     */
    @Bean
    RequestValidator requestValidator(QuotientProperties properties) {
        JobSpecValidator validator =
                new JobSpecValidator(properties.scheduling().maxMinRuntime());
        return (input, teams) -> validator.validateRequest(input);
    }
}
