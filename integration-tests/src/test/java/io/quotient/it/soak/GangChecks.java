package io.quotient.it.soak;

import io.quotient.it.soak.Observation.ObservedJob;
import java.util.ArrayList;
import java.util.List;

/**
 * A gang runs whole or not at all: a gang holding capacity has a placement for every replica, each on its own node;
 * a waiting one has no placement left (a Preempted one keeps it until its stop completes); and once evicted (or re-queued) none of its pods keeps running past
 * the settle time — never half a gang evicted; and the real kube-scheduler binds its running pods one per node, each on
 * a node of its placement (within the settle time: the pods of an old placement take their stop grace).
 */
final class GangChecks {

    private GangChecks() {}

    /** The violations of this look; pods of a waiting gang go to {@code lingering} (they take the stop grace). */
    static List<String> check(Observation obs, Lingering lingering) {
        List<String> violations = new ArrayList<>();
        for (ObservedJob job : obs.jobs()) {
            if (!job.gang()) {
                continue;
            }
            if (job.holds()) {
                List<String> nodes = new ArrayList<>();
                nodes.add(job.node());
                job.others().forEach(other -> nodes.add(other.node()));
                if (nodes.size() != job.replicas() || nodes.stream().distinct().count() != nodes.size()) {
                    violations.add("t=" + obs.t() + ": gang " + job.key() + " is " + job.phase() + " with "
                            + job.replicas() + " replicas but placed on " + nodes);
                }
                List<String> bound = obs.kubeflow().podNodes().getOrDefault(job.key(), List.of());
                if (bound.stream().distinct().count() != bound.size() || !nodes.containsAll(bound)) {
                    lingering.seen(
                            "gang-bound " + job.key(),
                            "gang " + job.key() + " placed on " + nodes + " has running pods on " + bound);
                }
            } else if (!job.others().isEmpty() && "Pending".equals(job.phase())) {
                // Preempted is the moment between an eviction's record and its stop: it keeps its placement then
                violations.add("t=" + obs.t() + ": gang " + job.key() + " is " + job.phase() + " yet keeps "
                        + job.others().size() + " replica placement(s)");
            } else if (obs.livePods().getOrDefault(job.key(), 0) > 0 && "Pending".equals(job.phase())) {
                lingering.seen(
                        "gang-pods " + job.key(),
                        "gang " + job.key() + " waits Pending but "
                                + obs.livePods().get(job.key()) + " of its pods still run (half a gang evicted)");
            }
        }
        return violations;
    }
}
