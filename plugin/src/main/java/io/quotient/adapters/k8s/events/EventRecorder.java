package io.quotient.adapters.k8s.events;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.quotient.adapters.k8s.GpuJobResource;
import io.quotient.adapters.k8s.KubernetesNames;
import io.quotient.adapters.k8s.records.KubernetesJobRecordStore;
import io.quotient.core.model.JobId;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records Kubernetes Events on jobs' GpuJobs ({@code kubectl describe gpujob} shows them). Events are
 * informational, so they are sent in the background: a deploy never waits for one, and when the API server is
 * too slow to keep up the oldest-first queue drops new ones with a warning instead of blocking decisions. A job
 * gets at most {@value #BURST} events of one reason at once, then one per minute ({@link EventSpamFilter}).
 */
public final class EventRecorder implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
    private static final Set<String> WARNINGS = Set.of("Preempted", "GpuOomKilled", "GpuLoanReclaimed");
    private static final int MAX_MESSAGE = 1024;
    private static final int BURST = 5;

    private final CoreV1Api core;
    private final String namespace;
    private final String instance;
    private final Function<JobId, Optional<KubernetesJobRecordStore.RecordLocation>> records;
    private final ThreadPoolExecutor sender;
    private final AtomicLong sequence = new AtomicLong();
    private final EventSpamFilter spamFilter = new EventSpamFilter(BURST, Duration.ofMinutes(1), Clock.systemUTC());

    /**
     * @param instance the replica's identity, shown as the reporting instance
     * @param records  where a job's GpuJob is (events link to it, in its namespace); the service's namespace when unknown
     */
    public EventRecorder(
            CoreV1Api core,
            String namespace,
            String instance,
            Function<JobId, Optional<KubernetesJobRecordStore.RecordLocation>> records) {
        this.core = core;
        this.namespace = namespace;
        this.instance = instance;
        this.records = records;
        this.sender = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(1000), r -> {
            Thread t = new Thread(r, "quotient-events");
            t.setDaemon(true);
            return t;
        });
    }

    public void record(JobId job, String reason, String message) {
        if (!spamFilter.allow(job, reason)) {
            LOG.debug(
                    "event {} for job {} of team {} not sent: too many of that reason lately ({})",
                    reason,
                    job.name(),
                    job.team(),
                    message);
            return;
        }
        CoreV1Event event = event(job, reason, message);
        try {
            sender.execute(() -> send(job, event));
        } catch (RejectedExecutionException e) {
            LOG.warn(
                    "event {} for job {} of team {} dropped: the event queue is full ({})",
                    reason,
                    job.name(),
                    job.team(),
                    message);
        }
    }

    CoreV1Event event(JobId job, String reason, String message) {
        Optional<KubernetesJobRecordStore.RecordLocation> record = records.apply(job);
        String object =
                record.map(KubernetesJobRecordStore.RecordLocation::name).orElse(KubernetesNames.ofJob(job));
        String namespace =
                record.map(KubernetesJobRecordStore.RecordLocation::namespace).orElse(this.namespace);
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        String text =
                message == null ? "" : message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) : message;
        return new CoreV1Event()
                .metadata(new V1ObjectMeta()
                        .namespace(namespace)
                        .name(object + "." + Long.toHexString(System.currentTimeMillis()) + sequence.incrementAndGet()))
                .involvedObject(new V1ObjectReference()
                        .apiVersion(GpuJobResource.API_VERSION)
                        .kind(GpuJobResource.KIND)
                        .namespace(namespace)
                        .name(object)
                        .uid(record.map(KubernetesJobRecordStore.RecordLocation::uid)
                                .orElse(null)))
                .reason(reason)
                .message(text)
                .type(WARNINGS.contains(reason) ? "Warning" : "Normal")
                .source(new V1EventSource().component("quotient"))
                .reportingComponent("quotient.io/quotient")
                .reportingInstance(instance)
                .firstTimestamp(now)
                .lastTimestamp(now)
                .count(1);
    }

    private void send(JobId job, CoreV1Event event) {
        try {
            core.createNamespacedEvent(event.getMetadata().getNamespace(), event)
                    .execute();
        } catch (ApiException e) {
            LOG.warn(
                    "event {} for job {} of team {} not recorded: HTTP {}: {}",
                    event.getReason(),
                    job.name(),
                    job.team(),
                    e.getCode(),
                    e.getResponseBody());
        } catch (RuntimeException e) {
            LOG.warn(
                    "event {} for job {} of team {} not recorded: {}",
                    event.getReason(),
                    job.name(),
                    job.team(),
                    e.toString());
        }
    }

    /** Sends what is queued (for up to a few seconds), then stops. */
    @Override
    public void close() {
        sender.shutdown();
        try {
            sender.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
