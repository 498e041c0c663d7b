package io.quotient.app.schedule;

import io.quotient.app.IdleProperties;
import io.quotient.app.QuotientProperties;
import io.quotient.deploy.port.LeadershipGate;
import java.time.Duration;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The periodic jobs (Quartz, in memory: every replica schedules them, and the jobs act only on the leader).
 * Schedules come from {@code quotient.schedules.*}.
 */
@Configuration(proxyBeanMethods = false)
public class SchedulesConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(SchedulesConfiguration.class);
    static final String GROUP = "quotient";
    static final JobKey REQUEUE = JobKey.jobKey("requeue", GROUP);

    /**
     * A newly elected leader runs the re-queue at once: it rebuilds from the API server (finishing what a dead
     * leader left half done) and places the jobs recorded meanwhile, instead of waiting for the next tick.
     */
    @Bean
    SmartInitializingSingleton requeueOnElection(LeadershipGate leadership, Scheduler quartz) {
        return () -> leadership.whenElected(() -> {
            try {
                quartz.triggerJob(REQUEUE);
            } catch (SchedulerException e) {
                LOG.warn("could not start the re-queue on election: {}; it runs on its next tick", e.toString());
            }
        });
    }

    @Bean
    JobDetail requeueJob() {
        return job(RequeueJob.class, "requeue");
    }

    @Bean
    Trigger requeueTrigger(QuotientProperties p) {
        return every("requeue", p.schedules().requeueInterval());
    }

    @Bean
    JobDetail reclaimJob() {
        return job(ReclaimJob.class, "reclaim");
    }

    @Bean
    Trigger reclaimTrigger(QuotientProperties p) {
        return every("reclaim", p.schedules().reclaimInterval());
    }

    @Bean
    JobDetail defragmentJob(QuotientProperties p) {
        return JobBuilder.newJob(DefragmentJob.class)
                .withIdentity("defragment", GROUP)
                .storeDurably()
                .usingJobData(DefragmentJob.MAX_MOVED_SHARE, p.schedules().defragmentMaxMovedShare())
                .build();
    }

    @Bean
    Trigger defragmentTrigger(QuotientProperties p) {
        return TriggerBuilder.newTrigger()
                .forJob("defragment", GROUP)
                .withIdentity("defragment", GROUP)
                .withSchedule(CronScheduleBuilder.cronSchedule(p.schedules().defragmentCron())
                        .withMisfireHandlingInstructionDoNothing())
                .build();
    }

    @Bean
    JobDetail metricsRefreshJob() {
        return job(MetricsRefreshJob.class, "metrics");
    }

    @Bean
    Trigger metricsRefreshTrigger(QuotientProperties p) {
        return every("metrics", p.schedules().metricsInterval());
    }

    @Bean
    JobDetail idleJob() {
        return job(IdleJob.class, "idle");
    }

    @Bean
    Trigger idleTrigger(IdleProperties p) {
        return every("idle", p.interval());
    }

    private static JobDetail job(Class<? extends Job> type, String name) {
        return JobBuilder.newJob(type).withIdentity(name, GROUP).storeDurably().build();
    }

    private static Trigger every(String job, Duration interval) {
        return TriggerBuilder.newTrigger()
                .forJob(job, GROUP)
                .withIdentity(job, GROUP)
                .startNow()
                .withSchedule(SimpleScheduleBuilder.simpleSchedule()
                        .withIntervalInMilliseconds(interval.toMillis())
                        .repeatForever()
                        .withMisfireHandlingInstructionNextWithRemainingCount())
                .build();
    }
}
