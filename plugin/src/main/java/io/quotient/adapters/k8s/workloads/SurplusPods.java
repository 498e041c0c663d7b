package io.quotient.adapters.k8s.workloads;

import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.quotient.core.model.JobId;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Pods of a job's batch Job beyond what the Job runs at once (its parallelism, 1 for Quotient's Jobs) that its
 * controller has not removed. A healthy Job controller removes such pods itself within a second; the long soak saw a
 * Job deleted at a preemption and made again under the same name two seconds later, across an API server restart, end
 * with two running pods for one replica for minutes (the 1.20 controller-manager neither removed one nor collected the
 * earlier object's). Quotient counts every live pod as holding its GPU, so nothing is over-allocated, but the job runs
 * twice; the reconciliation removes the surplus once it has lasted {@link #CONTROLLER_GRACE}: pods owned by another
 * object first (strays of an earlier one), then the newest, so the pod that has run longest stays.
 */
public final class SurplusPods {

    /** How long the Job controller is given to remove surplus pods itself. */
    static final Duration CONTROLLER_GRACE = Duration.ofSeconds(10);

    private final Map<JobId, Instant> firstSeen = new ConcurrentHashMap<>();

    /** The Job's live pods (in its namespace) beyond its parallelism, in the order to remove them. */
    public static List<V1Pod> of(V1Job job, List<V1Pod> pods) {
        String namespace = job.getMetadata().getNamespace();
        String uid = job.getMetadata().getUid();
        List<V1Pod> live = pods.stream()
                .filter(p -> Objects.equals(namespace, p.getMetadata().getNamespace()) && live(p))
                .sorted(Comparator.comparing((V1Pod p) -> ownedBy(p, uid))
                        .thenComparing(SurplusPods::created, Comparator.reverseOrder())
                        .thenComparing(p -> p.getMetadata().getName()))
                .toList();
        int allowed = job.getSpec() == null || job.getSpec().getParallelism() == null
                ? 1
                : Math.max(0, job.getSpec().getParallelism());
        return live.size() <= allowed ? List.of() : live.subList(0, live.size() - allowed);
    }

    /**
     * The jobs whose surplus has lasted the grace, with how many pods; {@code now} is this pass's count per job. A job
     * leaving the surplus starts its grace afresh the next time.
     */
    public Map<JobId, Integer> lasting(Map<JobId, Integer> now, Instant at) {
        firstSeen.keySet().retainAll(now.keySet());
        Map<JobId, Integer> result = new HashMap<>();
        now.forEach((job, count) -> {
            Instant since = firstSeen.computeIfAbsent(job, k -> at);
            if (!at.isBefore(since.plus(CONTROLLER_GRACE))) {
                result.put(job, count);
            }
        });
        return result;
    }

    private static boolean live(V1Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return pod.getMetadata().getDeletionTimestamp() == null
                && !"Succeeded".equals(phase)
                && !"Failed".equals(phase);
    }

    /** Whether the pod's controller is the object with this uid (pods owned by another one sort first). */
    private static boolean ownedBy(V1Pod pod, String uid) {
        List<V1OwnerReference> owners = pod.getMetadata().getOwnerReferences();
        return owners != null
                && owners.stream()
                        .anyMatch(o -> Boolean.TRUE.equals(o.getController()) && Objects.equals(uid, o.getUid()));
    }

    private static OffsetDateTime created(V1Pod pod) {
        V1ObjectMeta metadata = pod.getMetadata();
        return metadata.getCreationTimestamp() == null ? OffsetDateTime.MIN : metadata.getCreationTimestamp();
    }
}
