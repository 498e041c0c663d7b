package io.quotient.app;

import io.kubernetes.client.openapi.ApiClient;
import io.quotient.adapters.k8s.adoption.KubernetesNotebookStopper;
import io.quotient.core.idle.IdleDecider;
import io.quotient.core.scheduling.Scheduler;
import io.quotient.deploy.IdleReclaim;
import io.quotient.deploy.IdleRelease;
import io.quotient.deploy.JobTransitions;
import io.quotient.deploy.SnapshotBuilder;
import io.quotient.deploy.WaitNotes;
import io.quotient.deploy.port.ClusterObserver;
import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.LeadershipGate;
import io.quotient.deploy.port.NotebookStopper;
import io.quotient.deploy.port.TeamsSource;
import io.quotient.deploy.port.WorkloadGateway;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the idle policy (docs/usage.md, "Idle policy"): the pass that warns idle jobs and releases their GPUs, the
 * way a Notebook is stopped (its Kubeflow annotation on Kubernetes; none on the embedded cluster); its schedule is
 * with the other passes' ({@code SchedulesConfiguration}).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(IdleProperties.class)
public class IdleConfiguration {

    @Configuration(proxyBeanMethods = false)
    @Conditional(ClusterModeCondition.Embedded.class)
    static class Embedded {
        @Bean
        NotebookStopper noNotebooks() {
            return NotebookStopper.NONE;
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Conditional(ClusterModeCondition.Kubernetes.class)
    static class Kubernetes {
        @Bean
        NotebookStopper kubernetesNotebookStopper(ApiClient client) {
            return new KubernetesNotebookStopper(client);
        }
    }

    @Bean
    IdleReclaim idleReclaim(
            JobRecordStore store,
            ClusterObserver cluster,
            TeamsSource teams,
            Scheduler scheduler,
            JobTransitions transitions,
            WorkloadGateway gateway,
            NotebookStopper notebooks,
            WaitNotes notes,
            LeadershipGate leadership,
            Clock clock,
            QuotientProperties properties) {
        // the fit check needs no decayed fair shares: whether a waiting job would be placed at all
        return new IdleReclaim(
                store,
                cluster,
                new SnapshotBuilder(cluster, teams, clock),
                new IdleDecider(scheduler),
                new IdleRelease(
                        store,
                        transitions,
                        gateway,
                        notebooks,
                        clock,
                        properties.scheduling().stopGrace()),
                notes,
                leadership);
    }
}
