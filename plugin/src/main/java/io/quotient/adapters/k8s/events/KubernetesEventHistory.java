package io.quotient.adapters.k8s.events;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.quotient.adapters.k8s.GpuJobResource;
import io.quotient.adapters.k8s.records.KubernetesJobRecordStore;
import io.quotient.core.model.JobId;
import io.quotient.deploy.port.EventHistory;
import io.quotient.deploy.port.JobRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Events on GpuJobs, read from the API server (every replica sees them, leader or not). GpuJobs live in their
 * teams' namespaces (and older ones in the service's), so Events are listed across namespaces and matched to the
 * record they are about by namespace and name. One list call serves every reader for {@code cacheFor}, so
 * dashboards polling every few seconds cost the API server little.
 */
public final class KubernetesEventHistory implements EventHistory {

    private static final Logger LOG = LoggerFactory.getLogger(KubernetesEventHistory.class);

    private final CoreV1Api core;
    private final KubernetesJobRecordStore store;
    private final Clock clock;
    private final Duration cacheFor;
    private List<JobEvent> cached = List.of();
    private Instant readAt = Instant.MIN;

    public KubernetesEventHistory(CoreV1Api core, KubernetesJobRecordStore store, Clock clock, Duration cacheFor) {
        this.core = core;
        this.store = store;
        this.clock = clock;
        this.cacheFor = cacheFor;
    }

    @Override
    public synchronized List<JobEvent> recent(int limit) {
        Instant now = clock.instant();
        if (readAt.plus(cacheFor).isBefore(now)) {
            cached = read();
            readAt = now;
        }
        return cached.subList(Math.max(0, cached.size() - limit), cached.size());
    }

    private List<JobEvent> read() {
        try {
            Map<String, JobId> jobs = new HashMap<>();
            for (JobRecord r : store.listAll()) {
                store.locationOf(r.id()).ifPresent(at -> jobs.put(at.namespace() + "/" + at.name(), r.id()));
            }
            return core
                    .listEventForAllNamespaces()
                    .fieldSelector("involvedObject.kind=" + GpuJobResource.KIND)
                    .execute()
                    .getItems()
                    .stream()
                    .map(e -> new JobEvent(
                            jobs.get(e.getInvolvedObject().getNamespace() + "/"
                                    + e.getInvolvedObject().getName()),
                            e.getInvolvedObject().getName(),
                            e.getReason(),
                            e.getMessage(),
                            timeOf(e)))
                    .sorted(Comparator.comparing(JobEvent::at))
                    .toList();
        } catch (ApiException e) {
            LOG.warn("recent events of GpuJobs not read: HTTP {}: {}", e.getCode(), e.getResponseBody());
            return cached;
        } catch (RuntimeException e) {
            LOG.warn("recent events of GpuJobs not read: {}", e.toString());
            return cached;
        }
    }

    private static Instant timeOf(CoreV1Event e) {
        OffsetDateTime t = e.getLastTimestamp() != null
                ? e.getLastTimestamp()
                : e.getEventTime() != null ? e.getEventTime() : e.getMetadata().getCreationTimestamp();
        return t == null ? Instant.EPOCH : t.toInstant();
    }
}
