package io.quotient.adapters.k8s;

import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobCondition;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.quotient.adapters.template.TemplateRenderer;
import io.quotient.core.scheduling.JobId;
import io.quotient.deploy.port.WorkloadPhase;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the cluster shows of each job's workload, from Jobs and pods labelled {@code quotient.io/team} and
 * {@code quotient.io/job}. A Job's completion conditions decide success and failure; otherwise pods decide:
 * any running pod makes the workload RUNNING; pending or terminating pods make it STARTING (it still holds
 * its capacity); pods alone (notebooks, PyTorchJob replicas) finish when all have finished.
 *
 * <p>A Job whose own pods (owner reference to that Job's uid) have succeeded as often as it needs completions
 * ({@code spec.completions}, or one when unset), none of them left running or pending, has succeeded even before the
 * Job controller writes its Complete condition: its GPUs are free once its pods are done. The soak saw that
 * condition never come (a pod's update lost by the Job controller around an API server restart), which held two GPUs
 * for a finished job. Failure still waits for the Job's Failed condition: a failed pod may be retried.
 */
final class WorkloadPhases {

    private WorkloadPhases() {
    }

    static Map<JobId, WorkloadPhase> of(List<V1Job> jobs, List<V1Pod> pods) {
        Map<JobId, Observed> observed = new HashMap<>();
        for (V1Job job : jobs) {
            jobId(job.getMetadata()).ifPresent(id -> observed.computeIfAbsent(id, k -> new Observed()).job(job));
        }
        for (V1Pod pod : pods) {
            if (ReservationPods.isReservation(pod)) {
                continue;
            }
            jobId(pod.getMetadata()).ifPresent(id -> observed.computeIfAbsent(id, k -> new Observed()).pod(pod));
        }
        Map<JobId, WorkloadPhase> result = new HashMap<>();
        observed.forEach((id, o) -> result.put(id, o.phase()));
        return result;
    }

    static Optional<JobId> jobId(V1ObjectMeta metadata) {
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
        private boolean jobExists;
        private boolean jobTerminating;
        private String jobUid;
        private int completionsNeeded = 1;
        private int succeededOfJob;
        private WorkloadPhase jobOutcome;
        private int running;
        private int waiting;
        private int succeeded;
        private int failed;

        void job(V1Job job) {
            jobExists = true;
            jobTerminating |= job.getMetadata().getDeletionTimestamp() != null;
            jobUid = job.getMetadata().getUid();
            if (job.getSpec() != null && job.getSpec().getCompletions() != null) {
                completionsNeeded = job.getSpec().getCompletions();
            }
            if (job.getStatus() != null && job.getStatus().getConditions() != null) {
                for (V1JobCondition condition : job.getStatus().getConditions()) {
                    if ("True".equals(condition.getStatus()) && "Complete".equals(condition.getType())) {
                        jobOutcome = WorkloadPhase.SUCCEEDED;
                    } else if ("True".equals(condition.getStatus()) && "Failed".equals(condition.getType())) {
                        jobOutcome = WorkloadPhase.FAILED;
                    }
                }
            }
        }

        void pod(V1Pod pod) {
            String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
            if (pod.getMetadata().getDeletionTimestamp() != null) {
                waiting++; // terminating: still holds its GPU until it is gone
            } else if ("Running".equals(phase)) {
                running++;
            } else if ("Succeeded".equals(phase)) {
                succeeded++;
                if (ownedByTheJob(pod)) {
                    succeededOfJob++;
                }
            } else if ("Failed".equals(phase)) {
                failed++;
            } else {
                waiting++;
            }
        }

        private boolean ownedByTheJob(V1Pod pod) {
            return jobUid != null && pod.getMetadata().getOwnerReferences() != null
                    && pod.getMetadata().getOwnerReferences().stream()
                    .anyMatch(owner -> "Job".equals(owner.getKind()) && jobUid.equals(owner.getUid()));
        }

        WorkloadPhase phase() {
            if (jobOutcome != null && !jobTerminating && running == 0 && waiting == 0) {
                return jobOutcome;
            }
            if (jobOutcome == null && jobExists && !jobTerminating && running == 0 && waiting == 0
                    && succeededOfJob >= completionsNeeded) {
                return WorkloadPhase.SUCCEEDED;
            }
            if (running > 0 && !jobTerminating) {
                return WorkloadPhase.RUNNING;
            }
            if (jobExists || waiting > 0 || running > 0) {
                return WorkloadPhase.STARTING;
            }
            return failed > 0 ? WorkloadPhase.FAILED : WorkloadPhase.SUCCEEDED;
        }
    }
}
