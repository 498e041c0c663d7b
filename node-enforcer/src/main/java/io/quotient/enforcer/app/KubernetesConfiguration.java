package io.quotient.enforcer.app;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.quotient.enforcer.core.EnforcerHealth;
import io.quotient.enforcer.core.PodDirectory;
import io.quotient.enforcer.core.PodInfo;
import io.quotient.enforcer.core.ReportSchedule;
import io.quotient.enforcer.core.UsageMeter;
import io.quotient.enforcer.k8s.KubernetesReporter;
import io.quotient.enforcer.k8s.NodePodCache;
import io.quotient.enforcer.k8s.PodResourcesClient;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The API server and kubelet side: this node's pods, the node report, Events, reservation pods. */
@Configuration(proxyBeanMethods = false)
class KubernetesConfiguration {

    private static final String ENABLED = "quotient.enforcer.kubernetes.enabled";

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = ENABLED, havingValue = "true", matchIfMissing = true)
    static class InCluster {

        @Bean
        ApiClient apiClient() throws IOException {
            ApiClient client = ClientBuilder.standard().build();
            client.setReadTimeout(0); // watches stay open
            return client;
        }

        @Bean(initMethod = "start", destroyMethod = "close")
        NodePodCache podCache(ApiClient client, EnforcerProperties properties) {
            return new NodePodCache(client, properties.nodeName());
        }

        @Bean("podCache")
        PodCacheHealthIndicator podCacheHealthIndicator(NodePodCache pods) {
            return new PodCacheHealthIndicator(pods);
        }

        @Bean
        KubernetesReporter kubernetesReporter(ApiClient client, EnforcerProperties properties) {
            return new KubernetesReporter(client, properties.nodeName());
        }

        @Bean(destroyMethod = "close")
        KubernetesPublisher kubernetesPublisher(
                KubernetesReporter reporter, EnforcerHealth health, EnforcerProperties properties, Clock clock) {
            EnforcerProperties.Kubernetes kubernetes = properties.kubernetes();
            return new KubernetesPublisher(
                    reporter,
                    health,
                    new ReportSchedule(kubernetes.reportMinInterval(), kubernetes.reportMaxAge()),
                    clock,
                    new UsageMeter(usageSettings(properties)));
        }

        /**
         * A cycle later than four poll intervals (at least 2 s) is a stall, not counted; a pod that left stays in
         * the report for two report max-ages, so its last totals survive one lost publication.
         */
        static UsageMeter.Settings usageSettings(EnforcerProperties properties) {
            Duration maxGap = properties.pollInterval().multipliedBy(4);
            return new UsageMeter.Settings(
                    maxGap.compareTo(Duration.ofSeconds(2)) < 0 ? Duration.ofSeconds(2) : maxGap,
                    properties.kubernetes().reportMaxAge().multipliedBy(2));
        }

        @Bean(destroyMethod = "close")
        PodResourcesClient podResourcesClient(EnforcerProperties properties) {
            return new PodResourcesClient(properties.kubernetes().podResourcesSocket(), Duration.ofSeconds(5));
        }

        @Bean
        PeriodicTask reservationSync(
                PodResourcesClient kubelet,
                NodePodCache pods,
                KubernetesReporter reporter,
                EnforcerProperties properties) {
            return new PeriodicTask(
                    "reservation-sync",
                    new ReservationSync(kubelet, pods, reporter, properties.nodeName()),
                    properties.kubernetes().reservationSyncInterval());
        }
    }

    /** A local run without a cluster: no pod is known, so nothing is managed; GPUs are still read and reported. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = ENABLED, havingValue = "false")
    static class Standalone {

        @Bean
        PodDirectory noPods() {
            return new PodDirectory() {
                @Override
                public Optional<PodInfo> byUid(String uid) {
                    return Optional.empty();
                }

                @Override
                public Collection<PodInfo> all() {
                    return List.of();
                }
            };
        }
    }
}
