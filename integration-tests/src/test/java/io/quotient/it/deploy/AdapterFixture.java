package io.quotient.it.deploy;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.quotient.adapters.k8s.TenantScope;
import io.quotient.adapters.k8s.events.EventRecorder;
import io.quotient.adapters.k8s.observation.ClusterInformers;
import io.quotient.adapters.k8s.observation.KubernetesClusterObserver;
import io.quotient.adapters.k8s.records.GpuJobMapper;
import io.quotient.adapters.k8s.records.KubernetesJobRecordStore;
import io.quotient.adapters.k8s.workloads.KubernetesWorkloadGateway;
import io.quotient.adapters.template.TemplateCatalog;
import io.quotient.adapters.template.TemplateRenderer;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.request.GpuAsk;
import io.quotient.core.request.JobRequestInput;
import io.quotient.core.tenancy.TeamNamespaces;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.Metadata;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Kubernetes adapters wired by hand on one namespace of the test control plane, without the service
 * around them: the store, the observer and the gateway as the service builds them.
 */
final class AdapterFixture implements AutoCloseable {

    final ClusterInformers informers;
    final KubernetesJobRecordStore store;
    final KubernetesClusterObserver observer;
    final EventRecorder events;
    final KubernetesWorkloadGateway gateway;

    AdapterFixture(ApiClient client, ApiClient watchClient, String namespace) {
        this(client, watchClient, namespace, KubernetesJobRecordStore.DEFAULT_CLAIM_WRITERS);
    }

    /** @param claimWriters how many records the store's claim rewrites at once */
    AdapterFixture(ApiClient client, ApiClient watchClient, String namespace, int claimWriters) {
        informers = new ClusterInformers(watchClient, namespace);
        // records without a namespace of their own go to the service's (shared) namespace, as before teams had any
        TenantScope scope = new TenantScope(namespace, () -> TeamNamespaces.defaults(List.of()));
        store = new KubernetesJobRecordStore(
                client,
                informers.gpuJobs(),
                scope,
                new GpuJobMapper(submission -> specOf(submission.request())),
                claimWriters);
        informers.start(Duration.ofSeconds(60));
        // the harness's reports are not refreshed by every test: accept them for the test's duration
        observer = new KubernetesClusterObserver(informers, scope, Clock.systemUTC(), Duration.ofHours(1));
        events = new EventRecorder(new CoreV1Api(client), namespace, "adapter-it", store::locationOf);
        gateway = new KubernetesWorkloadGateway(
                client,
                namespace,
                new TemplateRenderer(TemplateCatalog.builtIn()),
                observer,
                store::locationOf,
                events);
    }

    /** A small stand-in for the service's validator: whole GPUs or a fraction, with CPU and memory. */
    static JobSpec specOf(JobRequestInput in) {
        GpuRequest gpu = in.gpu().fraction() != null
                ? new GpuRequest.Fraction(
                        in.gpu().fraction().movePointRight(3).intValueExact(),
                        (in.gpu().fractionLimit() == null
                                        ? in.gpu().fraction()
                                        : in.gpu().fractionLimit())
                                .movePointRight(3)
                                .intValueExact(),
                        1)
                : in.gpu().count() == null
                        ? new GpuRequest.None()
                        : new GpuRequest.WholeGpus(in.gpu().count());
        return new JobSpec(
                new JobId(in.team(), in.name()),
                gpu,
                in.resources().cpuMilli() == null ? 100 : in.resources().cpuMilli(),
                in.resources().memoryMib() == null ? 128 : in.resources().memoryMib(),
                Set.of(),
                0,
                true,
                Duration.ZERO);
    }

    static JobRecord wholeGpuRecord(String team, String name, int gpus) {
        return record(JobRequestInput.of(team, name).with(GpuAsk.whole(gpus)));
    }

    static JobRecord fractionRecord(String team, String name, double fraction) {
        return record(JobRequestInput.of(team, name)
                .with(GpuAsk.fraction(fraction, fraction).onDevices(1)));
    }

    private static JobRecord record(JobRequestInput input) {
        JobSubmission submission = new JobSubmission(
                input,
                "job",
                "busybox:1.36",
                List.of("sleep", "3600"),
                List.of(),
                Metadata.labels(Map.of("it", "adapters")),
                Map.of());
        return new JobRecord(submission, specOf(input), JobStatus.pending("new"), Instant.now(), null);
    }

    @Override
    public void close() {
        gateway.close();
        events.close();
        informers.close();
    }
}
