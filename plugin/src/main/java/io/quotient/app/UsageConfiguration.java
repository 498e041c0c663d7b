package io.quotient.app;

import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotient.adapters.k8s.records.KubernetesFairShareUsageStore;
import io.quotient.adapters.k8s.records.KubernetesUsageRecordStore;
import io.quotient.adapters.memory.InMemoryFairShareUsageStore;
import io.quotient.adapters.memory.InMemoryUsageRecordStore;
import io.quotient.adapters.metrics.UsageMeters;
import io.quotient.app.kubernetes.KubernetesProperties;
import io.quotient.app.schedule.UsageJob;
import io.quotient.core.usage.UsageAccumulator;
import io.quotient.core.usage.UsageSummary;
import io.quotient.deploy.port.ClusterObserver;
import io.quotient.deploy.port.FairShareUsageStore;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.LeadershipGate;
import io.quotient.deploy.port.TeamsSource;
import io.quotient.deploy.port.UsageRecordStore;
import io.quotient.usage.UsageRecorder;
import java.time.Clock;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * Wires usage accounting: the recorder, its store, its Prometheus counters, and the periodic job that feeds them
 * (docs/usage.md); and the store of the usage history behind decayed fair shares (docs/fairness.md).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(UsageProperties.class)
public class UsageConfiguration {

    private static final String GROUP = "quotient";

    /** On the embedded cluster records and the fair-share usage history are kept in memory, as its job records are. */
    @Configuration(proxyBeanMethods = false)
    @Conditional(ClusterModeCondition.Embedded.class)
    static class Embedded {
        @Bean
        UsageRecordStore inMemoryUsageRecordStore() {
            return new InMemoryUsageRecordStore();
        }

        @Bean
        FairShareUsageStore inMemoryFairShareUsageStore() {
            return new InMemoryFairShareUsageStore();
        }
    }

    /** On Kubernetes, ConfigMaps in the service's namespace: one per job's usage record. */
    @Configuration(proxyBeanMethods = false)
    @Conditional(ClusterModeCondition.Kubernetes.class)
    static class Kubernetes {
        @Bean
        UsageRecordStore kubernetesUsageRecordStore(ApiClient client, KubernetesProperties kubernetes) {
            return new KubernetesUsageRecordStore(client, kubernetes.namespace());
        }

        /** The fair-share usage history: one ConfigMap, so that it survives restarts and failovers. */
        @Bean
        FairShareUsageStore kubernetesFairShareUsageStore(ApiClient client, KubernetesProperties kubernetes) {
            return new KubernetesFairShareUsageStore(client, kubernetes.namespace());
        }
    }

    @Bean
    UsageRecorder usageRecorder(
            JobRecordStore jobs,
            ClusterObserver cluster,
            UsageRecordStore store,
            LeadershipGate leadership,
            Clock clock,
            UsageProperties properties) {
        return new UsageRecorder(
                jobs,
                cluster,
                store,
                leadership,
                clock,
                new UsageRecorder.Settings(
                        new UsageAccumulator.Settings(properties.maxGap()), properties.persistInterval()));
    }

    @Bean
    UsageMeters usageMeters(MeterRegistry registry, UsageRecorder recorder, TeamsSource teams) {
        return new UsageMeters(
                registry,
                recorder::records,
                () -> UsageSummary.departments(teams.teams().values()));
    }

    @Bean
    JobDetail usageJob() {
        return JobBuilder.newJob(UsageJob.class)
                .withIdentity("usage", GROUP)
                .storeDurably()
                .build();
    }

    @Bean
    Trigger usageTrigger(UsageProperties properties) {
        return TriggerBuilder.newTrigger()
                .forJob("usage", GROUP)
                .withIdentity("usage", GROUP)
                .startNow()
                .withSchedule(SimpleScheduleBuilder.simpleSchedule()
                        .withIntervalInMilliseconds(properties.interval().toMillis())
                        .repeatForever()
                        .withMisfireHandlingInstructionNextWithRemainingCount())
                .build();
    }
}
