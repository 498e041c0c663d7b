package io.quotient.it.soak;

import io.quotient.it.soak.KubeflowLook.NotebookPod;
import io.quotient.it.soak.KubeflowLook.Workload;
import io.quotient.it.soak.Observation.ObservedJob;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The invariants of workloads created directly in a team's namespace (the admission webhook's path, issue 12):
 * <ul>
 *   <li>a PyTorchJob or TrainJob the API server accepted gets its GpuJob (adoption runs on the leader's re-queue
 *   pass, so only for longer than the settle time is a missing one a violation); from the moment its GpuJob is
 *   seen it counts as an accepted job: it must not vanish unless its owner deleted the workload (the garbage
 *   collector removes the GpuJob it owns);</li>
 *   <li>such a workload runs unsuspended only while its job holds a placement: a waiting or preempted one is
 *   suspended (again) within the settle time, never left running unplaced;</li>
 *   <li>a notebook's GPU pod is never admitted unpinned (no required node affinity: a violation at once), and while
 *   it lives its job holds a placement on the pod's node (within the settle time: a preemption deletes the pod).</li>
 * </ul>
 * A notebook pod's job legitimately ends without its owner (a placement whose pod does not come within the
 * pod-arrival grace is given up), so notebooks are not counted as accepted jobs.
 */
final class KubeflowChecks {

    /** Workloads the API server accepted whose GpuJob has not been seen yet: key → when created. */
    private final Map<String, Long> awaitingRecord = new HashMap<>();
    /** Notebook pods already reported unpinned (once each). */
    private final Set<String> unpinned = new HashSet<>();

    void created(String key, long t) {
        awaitingRecord.put(key, t);
    }

    /**
     * Checks one look; moves workloads whose GpuJob showed up into {@code accepted}; passing states go to
     * {@code lingering}. Returns the immediate violations.
     */
    List<String> check(Observation obs, Map<String, ObservedJob> now, Map<String, Long> accepted, Lingering lingering) {
        for (Iterator<Map.Entry<String, Long>> it = awaitingRecord.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Long> created = it.next();
            if (now.containsKey(created.getKey())) {
                accepted.put(created.getKey(), created.getValue());
                it.remove();
            }
        }
        for (Workload workload : obs.kubeflow().workloads()) {
            ObservedJob job = now.get(workload.key());
            if (job == null) {
                lingering.seen(
                        "kf-orphan " + workload.key(),
                        workload.kind() + " " + workload.key() + " has no GpuJob (not adopted)");
            }
            if (!workload.suspended() && (job == null || !job.holds())) {
                lingering.seen(
                        "kf-unsuspended " + workload.key(),
                        workload.kind() + " " + workload.key()
                                + " is not suspended while its job is "
                                + (job == null ? "missing" : job.phase() + " (" + job.reason() + ")"));
            }
        }
        List<String> violations = new ArrayList<>();
        for (NotebookPod pod : obs.kubeflow().notebooks()) {
            if (!pod.pinned()) {
                if (unpinned.add(pod.key())) {
                    violations.add("t=" + obs.t() + ": notebook pod " + pod.key()
                            + " was admitted unpinned (no required" + " node affinity), on node " + pod.node());
                }
                continue;
            }
            ObservedJob job = now.get(pod.key());
            if (job == null
                    || !job.holds()
                    || (pod.node() != null && !pod.node().equals(job.node()))) {
                lingering.seen(
                        "nb-unplaced " + pod.key(),
                        "notebook pod " + pod.key() + " lives on node " + pod.node() + " while its job is "
                                + (job == null ? "missing" : job.phase() + " on " + job.node()));
            }
        }
        return violations;
    }
}
