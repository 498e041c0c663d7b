package io.quotient.adapters.k8s.workloads;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.quotient.adapters.template.TemplateRenderer;
import io.quotient.core.model.JobId;
import io.quotient.deploy.port.WorkloadPhase;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the cluster shows of each job's workload, from its controlling objects (batch Jobs, PyTorchJobs, TrainJobs)
 * and pods labelled {@code quotient.io/team} and {@code quotient.io/job}. The object's final condition decides
 * success and failure; otherwise pods decide: any running pod makes the workload RUNNING; pending or terminating pods
 * make it STARTING (it still holds its capacity); bare pods (notebooks) finish when all have finished.
 *
 * <p>Pods are matched to the object by their owner reference. A pod owned by an earlier object of the same name
 * (a gang re-placed after a node removal is deleted and created again) is not this workload's: while it lives it
 * still holds its GPU (counted as starting), once finished it says nothing. The soak saw a re-placed gang judged
 * finished from its earlier incarnation's finished pods before the new object's pods existed; its new pods then ran
 * unaccounted.
 *
 * <p>An object whose own pods have finished as often as it needs (a Job's completions, a training job's replicas),
 * none of them left running or pending, has finished even before its controller writes the condition: its GPUs are
 * free once its pods are done (the soak saw a Job's Complete condition never come after an API server restart). A
 * Job's failure still waits for its Failed condition, since a failed pod may be retried.
 */
public final class WorkloadPhases {

    private WorkloadPhases() {}

    /** @param objects the controlling objects by job, as cached */
    public static Map<JobId, WorkloadPhase> of(Map<JobId, List<WorkloadObject>> objects, List<V1Pod> pods) {
        Map<JobId, Observed> observed = new HashMap<>();
        objects.forEach((id, list) -> list.forEach(
                object -> observed.computeIfAbsent(id, k -> new Observed()).object(object)));
        for (V1Pod pod : pods) {
            if (ReservationPods.isReservation(pod)) {
                continue;
            }
            jobId(pod.getMetadata())
                    .ifPresent(id ->
                            observed.computeIfAbsent(id, k -> new Observed()).pod(pod));
        }
        Map<JobId, WorkloadPhase> result = new HashMap<>();
        observed.forEach((id, o) -> result.put(id, o.phase()));
        return result;
    }

    public static Optional<JobId> jobId(V1ObjectMeta metadata) {
        Map<String, String> labels = metadata == null ? null : metadata.getLabels();
        if (labels == null) {
            return Optional.empty();
        }
        String team = labels.get(TemplateRenderer.TEAM_LABEL);
        String name = labels.get(TemplateRenderer.JOB_LABEL);
        return team == null || name == null ? Optional.empty() : Optional.of(new JobId(team, name));
    }

    /** Tallies of one job's objects. */
    private static final class Observed {
        private final Map<String, WorkloadObject> objectsByUid = new HashMap<>();
        private final Map<String, Integer> finishedOf = new HashMap<>();
        private final Map<String, Integer> succeededOf = new HashMap<>();
        private final List<V1Pod> pods = new ArrayList<>();
        private int running;
        private int waiting;
        private int failed;

        void object(WorkloadObject object) {
            objectsByUid.put(object.uid(), object);
        }

        void pod(V1Pod pod) {
            pods.add(pod); // tallied in phase(), once every object is known
        }

        private void tally(V1Pod pod) {
            String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
            boolean finished = "Succeeded".equals(phase) || "Failed".equals(phase);
            boolean terminating = pod.getMetadata().getDeletionTimestamp() != null;
            List<V1OwnerReference> owners = pod.getMetadata().getOwnerReferences() == null
                    ? List.of()
                    : pod.getMetadata().getOwnerReferences();
            Optional<String> owner = owners.stream()
                    .map(V1OwnerReference::getUid)
                    .filter(objectsByUid::containsKey)
                    .findFirst();
            if (owner.isEmpty() && ownedByAnEarlierObject(owners)) {
                // it holds its GPU until it is gone, and its outcome is not this workload's
                if (terminating || !finished) {
                    waiting++;
                }
                return;
            }
            if (terminating) {
                waiting++; // terminating: still holds its GPU until it is gone
            } else if ("Running".equals(phase)) {
                running++;
            } else if (finished) {
                if ("Failed".equals(phase)) {
                    failed++;
                }
                owner.ifPresent(uid -> {
                    finishedOf.merge(uid, 1, Integer::sum);
                    if ("Succeeded".equals(phase)) {
                        succeededOf.merge(uid, 1, Integer::sum);
                    }
                });
            } else {
                waiting++;
            }
        }

        /**
         * Whether an object of the same kind as one of the job's, but none of them, owns the pod: an earlier
         * incarnation. Any other pod (a bare pod, a TrainJob's pod owned by its runtime's Job, a pod whose object is
         * not cached yet or any more) counts as it is.
         */
        private boolean ownedByAnEarlierObject(List<V1OwnerReference> owners) {
            return owners.stream()
                    .anyMatch(owner -> objectsByUid.values().stream()
                            .anyMatch(object -> object.kind().equals(owner.getKind())));
        }

        WorkloadPhase phase() {
            pods.forEach(this::tally);
            boolean objectExists = !objectsByUid.isEmpty();
            boolean terminating = objectsByUid.values().stream().anyMatch(WorkloadObject::terminating);
            boolean idle = running == 0 && waiting == 0;
            if (objectExists && !terminating && idle) {
                Optional<WorkloadPhase> done = finished();
                if (done.isPresent()) {
                    return done.get();
                }
            }
            if (running > 0 && !terminating) {
                return WorkloadPhase.RUNNING;
            }
            if (objectExists || waiting > 0 || running > 0) {
                return WorkloadPhase.STARTING;
            }
            return failed > 0 ? WorkloadPhase.FAILED : WorkloadPhase.SUCCEEDED;
        }

        /** The outcome of an object whose pods are all done: its condition, or its own pods' count. */
        private Optional<WorkloadPhase> finished() {
            for (WorkloadObject object : objectsByUid.values()) {
                if (object.outcome().isPresent()) {
                    return object.outcome();
                }
            }
            for (WorkloadObject object : objectsByUid.values()) {
                int finishedPods = object.retriesFailedPods()
                        ? succeededOf.getOrDefault(object.uid(), 0)
                        : finishedOf.getOrDefault(object.uid(), 0);
                if (finishedPods >= object.finishedPodsNeeded()) {
                    return Optional.of(
                            !object.retriesFailedPods() && failed > 0 ? WorkloadPhase.FAILED : WorkloadPhase.SUCCEEDED);
                }
            }
            return Optional.empty();
        }
    }
}
