package io.quotient.app;

import io.quotient.adapters.memory.InMemoryUsageRecordStore;
import io.quotient.app.schedule.UsageJob;
import io.quotient.core.usage.UsageAccumulator;
import io.quotient.deploy.port.ClusterObserver;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.LeadershipGate;
import io.quotient.deploy.port.UsageRecordStore;
import io.quotient.usage.UsageRecorder;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;

/** Wires usage accounting: the recorder, its store, and the periodic job that feeds it (docs/usage.md). */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(UsageProperties.class)
public class UsageConfiguration {

    private static final String GROUP = "quotient";

    /** The default store keeps records in memory: they survive a leader change within the process, not a restart. */
    @Bean
    @ConditionalOnMissingBean(UsageRecordStore.class)
    UsageRecordStore inMemoryUsageRecordStore() {
        return new InMemoryUsageRecordStore();
    }

    @Bean
    UsageRecorder usageRecorder(JobRecordStore jobs, ClusterObserver cluster, UsageRecordStore store,
                                LeadershipGate leadership, Clock clock, UsageProperties properties) {
        return new UsageRecorder(jobs, cluster, store, leadership, clock, new UsageRecorder.Settings(
                new UsageAccumulator.Settings(properties.maxGap()), properties.persistInterval()));
    }

    @Bean
    JobDetail usageJob() {
        return JobBuilder.newJob(UsageJob.class).withIdentity("usage", GROUP).storeDurably().build();
    }

    @Bean
    Trigger usageTrigger(UsageProperties properties) {
        return TriggerBuilder.newTrigger().forJob("usage", GROUP).withIdentity("usage", GROUP).startNow()
                .withSchedule(SimpleScheduleBuilder.simpleSchedule()
                        .withIntervalInMilliseconds(properties.interval().toMillis()).repeatForever()
                        .withMisfireHandlingInstructionNextWithRemainingCount())
                .build();
    }
}
