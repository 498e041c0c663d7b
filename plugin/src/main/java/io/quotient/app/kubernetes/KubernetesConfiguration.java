package io.quotient.app.kubernetes;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotient.adapters.k8s.KubernetesAccessReview;
import io.quotient.adapters.k8s.TenantScope;
import io.quotient.adapters.k8s.adoption.AdoptedWorkloadGateway;
import io.quotient.adapters.k8s.adoption.KubernetesAdoptableWorkloads;
import io.quotient.adapters.k8s.adoption.WorkloadAdmission;
import io.quotient.adapters.k8s.events.EventRecorder;
import io.quotient.adapters.k8s.events.KubernetesEventHistory;
import io.quotient.adapters.k8s.leadership.KubernetesLeadershipGate;
import io.quotient.adapters.k8s.observation.ClusterInformers;
import io.quotient.adapters.k8s.observation.KubernetesClusterObserver;
import io.quotient.adapters.k8s.records.ConfigMapTeamsSource;
import io.quotient.adapters.k8s.records.GpuJobAdmission;
import io.quotient.adapters.k8s.records.GpuJobMapper;
import io.quotient.adapters.k8s.records.KubernetesJobRecordStore;
import io.quotient.adapters.k8s.records.RefusedGpuJobs;
import io.quotient.adapters.k8s.workloads.KubernetesWorkloadGateway;
import io.quotient.adapters.rest.AdmissionController;
import io.quotient.adapters.template.TemplateCatalog;
import io.quotient.adapters.template.TemplateRenderer;
import io.quotient.app.ClusterDefaultTeams;
import io.quotient.app.ClusterModeCondition;
import io.quotient.app.KubeconfigDiscovery;
import io.quotient.app.QuotientProperties;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.deploy.Adoption;
import io.quotient.deploy.ClaimedLeadership;
import io.quotient.deploy.DeploymentService;
import io.quotient.deploy.PodAdmissions;
import io.quotient.deploy.RequestValidator;
import io.quotient.deploy.SubmissionChecks;
import io.quotient.deploy.port.ClusterObserver;
import io.quotient.deploy.port.EventHistory;
import io.quotient.deploy.port.LeadershipGate;
import io.quotient.deploy.port.TeamsSource;
import io.quotient.deploy.port.WorkloadGateway;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.context.annotation.Primary;
import org.springframework.core.env.Environment;

/**
 * The ports on a Kubernetes cluster ({@code quotient.cluster.mode=kubernetes}, or {@code auto} with
 * {@code --quotient.kubeconfig=PATH} or inside a pod): GpuJob records, informer caches, rendered workloads,
 * reservation pods, Events, the teams ConfigMap, and leader election on a Lease.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(ClusterModeCondition.Kubernetes.class)
@EnableConfigurationProperties(KubernetesProperties.class)
public class KubernetesConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(KubernetesConfiguration.class);

    /** The kubeconfig found as kubectl finds it (empty: the pod's service account). */
    @Bean
    KubeconfigSource kubeconfigSource(Environment environment) {
        return new KubeconfigSource(KubeconfigDiscovery.find(environment));
    }

    @Bean
    ApiClient kubernetesApiClient(KubeconfigSource kubeconfig) {
        ApiClient client = KubernetesClients.forCalls(kubeconfig.file());
        LOG.info("cluster mode: {}", KubernetesClients.describe(kubeconfig.file(), client));
        return client;
    }

    /** Started before any port is used: the first decision sees every record and object that exists. */
    @Bean(destroyMethod = "close")
    ClusterInformers clusterInformers(KubeconfigSource kubeconfig, KubernetesProperties kubernetes) {
        return new ClusterInformers(KubernetesClients.forWatches(kubeconfig.file()), kubernetes.namespace());
    }

    @Bean
    TemplateRenderer templateRenderer(QuotientProperties properties) {
        TemplateCatalog catalog = TemplateCatalog.load(Optional.ofNullable(properties.templatesFolder()));
        LOG.info("job templates: {}", catalog.names());
        return new TemplateRenderer(catalog);
    }

    /** Reviews REST callers' tokens and access with the API server (see AccessConfiguration). */
    @Bean
    KubernetesAccessReview kubernetesAccessReview(ApiClient client) {
        return new KubernetesAccessReview(client);
    }

    /** The namespaces the service manages: its own (shared) and the teams' (re-read as the teams change). */
    @Bean
    TenantScope tenantScope(KubernetesProperties kubernetes, @Lazy TeamsSource teams) {
        return new TenantScope(kubernetes.namespace(), teams::namespaces);
    }

    /** A stored request (written by REST or applied with kubectl) passes the checks new REST requests go through. */
    @Bean
    GpuJobMapper gpuJobMapper(RequestValidator validator, @Lazy TeamsSource teams, TemplateRenderer renderer) {
        return new GpuJobMapper(submission -> {
            SubmissionChecks.check(submission, renderer.catalog().traits());
            return validator.validate(submission.request(), teams.teams());
        });
    }

    /** The validating admission webhook of GpuJobs (served on quotient.admission.port over HTTPS). */
    @Bean
    AdmissionController.AdmissionReviewer gpuJobAdmission(GpuJobMapper mapper, TenantScope scope) {
        return new GpuJobAdmission(mapper, scope)::review;
    }

    /**
     * The webhooks of batch Jobs, PyTorchJobs and TrainJobs created outside Quotient (suspended for adoption), and of
     * pods that ask for GPUs (admitted pinned to their job's placement, or refused while it waits).
     */
    @Bean
    AdmissionController.WorkloadReviewer workloadAdmission(
            TenantScope scope, KubernetesJobRecordStore store, DeploymentService deployments, ClusterObserver cluster) {
        WorkloadAdmission admission =
                new WorkloadAdmission(scope, store::find, new PodAdmissions(deployments, store, cluster));
        return new AdmissionController.WorkloadReviewer() {
            @Override
            public String mutate(String review) {
                return admission.mutate(review);
            }

            @Override
            public String validate(String review) {
                return admission.validate(review);
            }
        };
    }

    /** Records and places the workloads the webhook suspended (each re-queue pass, on the leader). */
    @Bean
    Adoption adoption(
            ApiClient client,
            TenantScope scope,
            KubernetesJobRecordStore store,
            DeploymentService deployments,
            LeadershipGate leadership) {
        return new Adoption(new KubernetesAdoptableWorkloads(client, scope), store, deployments, leadership);
    }

    @Bean
    KubernetesJobRecordStore kubernetesJobRecordStore(
            ApiClient client,
            ClusterInformers informers,
            KubernetesProperties kubernetes,
            GpuJobMapper mapper,
            TenantScope scope,
            RefusedGpuJobs refused) {
        KubernetesJobRecordStore store =
                new KubernetesJobRecordStore(client, informers.gpuJobs(), scope, mapper, kubernetes.claimWriters());
        store.onInvalid(refused::refuse);
        informers.start(kubernetes.cacheSyncTimeout());
        return store;
    }

    /** GpuJobs applied with kubectl whose request is invalid are marked Failed with the reason. */
    @Bean(destroyMethod = "close")
    RefusedGpuJobs refusedGpuJobs(ApiClient client) {
        return new RefusedGpuJobs(client);
    }

    @Bean
    KubernetesClusterObserver kubernetesClusterObserver(
            ClusterInformers informers,
            KubernetesProperties kubernetes,
            KubernetesJobRecordStore startedWithStore,
            TenantScope scope,
            Clock clock) {
        return new KubernetesClusterObserver(informers, scope, clock, kubernetes.reportFreshness());
    }

    @Bean(destroyMethod = "close")
    EventRecorder eventRecorder(
            ApiClient client,
            KubernetesProperties kubernetes,
            KubernetesJobRecordStore store,
            LeaderIdentity identity) {
        return new EventRecorder(new CoreV1Api(client), kubernetes.namespace(), identity.value(), store::locationOf);
    }

    /** What the dashboard shows as recent history: the Events on GpuJobs, one list call per 2 s at most. */
    @Bean
    EventHistory eventHistory(
            ApiClient client, KubernetesProperties kubernetes, KubernetesJobRecordStore store, Clock clock) {
        return new KubernetesEventHistory(new CoreV1Api(client), store, clock, Duration.ofSeconds(2));
    }

    @Bean(destroyMethod = "close")
    KubernetesWorkloadGateway kubernetesWorkloadGateway(
            ApiClient client,
            KubernetesProperties kubernetes,
            TemplateRenderer renderer,
            KubernetesClusterObserver observer,
            KubernetesJobRecordStore store,
            EventRecorder events) {
        return new KubernetesWorkloadGateway(
                client, kubernetes.namespace(), renderer, observer, store::locationOf, events);
    }

    /**
     * The gateway the service uses: the Kubernetes one, wrapped by an interceptor only when one is defined (the
     * integration tests' crash points; production has none), behind the one that patches adopted workloads instead of
     * rendering.
     */
    @Bean
    @Primary
    WorkloadGateway workloadGateway(
            KubernetesWorkloadGateway gateway,
            ApiClient client,
            KubernetesJobRecordStore store,
            KubernetesClusterObserver observer,
            ObjectProvider<WorkloadGatewayInterceptor> interceptor) {
        ToLongFunction<String> gpuMemory =
                node -> observer.node(node).map(NodeSpec::gpuMemoryMib).orElse(0L);
        WorkloadGatewayInterceptor wrapper = interceptor.getIfAvailable();
        if (wrapper == null) {
            return new AdoptedWorkloadGateway(gateway, client, store::find, gpuMemory);
        }
        LOG.warn(
                "the workload gateway is wrapped by {} (a test's interceptor)",
                wrapper.getClass().getName());
        return new AdoptedWorkloadGateway(wrapper.around(gateway), client, store::find, gpuMemory);
    }

    @Bean
    LeaderIdentity leaderIdentity(KubernetesProperties kubernetes) {
        return LeaderIdentity.of(kubernetes.identity());
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    KubernetesLeadershipGate kubernetesLeadershipGate(
            ApiClient client, KubernetesProperties kubernetes, LeaderIdentity identity) {
        return new KubernetesLeadershipGate(
                client,
                kubernetes.namespace(),
                kubernetes.leaseName(),
                identity.value(),
                new KubernetesLeadershipGate.Timing(
                        kubernetes.leaseDuration(), kubernetes.renewDeadline(), kubernetes.retryPeriod()));
    }

    /**
     * The leadership every decision asks for: the Lease, and this replica's term claimed on the records before its
     * first decision, so that a write an earlier leader sends late fails on the record's version.
     */
    @Bean
    @Primary
    LeadershipGate leadershipGate(KubernetesLeadershipGate elected, KubernetesJobRecordStore store) {
        return new ClaimedLeadership(elected, store, elected.retryPeriod());
    }

    /** {@code quotient_leader{identity}}: 1 on the replica that decides, 0 on a follower (the sum should be 1). */
    @Bean
    Gauge leaderGauge(KubernetesLeadershipGate elected, LeadershipGate gate, MeterRegistry registry) {
        return Gauge.builder("quotient.leader", gate, g -> g.isLeader() ? 1 : 0)
                .tag("identity", elected.identity())
                .description("whether this replica holds the leader Lease and makes the decisions")
                .register(registry);
    }

    /** The teams ConfigMap, used when no teams file is configured. */
    @Bean
    ClusterDefaultTeams kubernetesTeams(
            ApiClient client, KubernetesProperties kubernetes, QuotientProperties properties, Clock clock) {
        return new ClusterDefaultTeams(
                new ConfigMapTeamsSource(
                        new CoreV1Api(client), kubernetes.namespace(), properties.teamsPollInterval(), clock),
                kubernetes.namespace());
    }
}
