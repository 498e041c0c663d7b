package io.quotient.deploy;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.Demands;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.Team;
import io.quotient.core.request.JobSpecValidator;
import io.quotient.core.request.RequestException;
import java.util.Collection;

/**
 * The team's own limits on a new job: no more GPUs than the team may ever hold ({@code maxGpus}; such a job would wait
 * for ever whatever the cluster, since only the teams file can change the limit), a non-preemptible job no more than
 * the team's guarantee (the only GPUs it may run on, for the same reason), and no longer minimum runtime than
 * the team's {@code maxMinRuntimeSeconds}. Checked on new deploys only: a stored job of a team whose limits were
 * lowered since is kept, not failed (its minimum runtime stays within the cluster's maximum, which every read checks).
 * A MiB request is counted in GPUs on the cluster's GPUs that can hold it, the largest first (the fewest GPUs it can
 * take): counted nowhere, {@code gpu.memoryMib: 81920} on 3 GPUs of a team of {@code maxGpus: 2} was recorded to
 * wait for ever (202) where the same ask as a fraction was refused. A MiB request no GPU of the cluster holds yet is
 * left to wait as Unschedulable: a node with larger GPUs may come.
 */
final class TeamLimits {

    private TeamLimits() {}

    /** @throws RequestException naming the field and the team's limit */
    static void check(JobSpec spec, Team team, Collection<NodeSpec> nodes) {
        if (team == null) {
            return;
        }
        if (team.maxMinRuntime() != null && spec.minRuntime().compareTo(team.maxMinRuntime()) > 0) {
            throw new RequestException(
                    "minRuntimeSeconds",
                    "is " + spec.minRuntime().toSeconds() + "; at most "
                            + team.maxMinRuntime().toSeconds() + " seconds are allowed for team " + team.name() + ": "
                            + JobSpecValidator.MIN_RUNTIME_WHY
                            + team.maxMinRuntime().toSeconds());
        }
        Requested requested = requested(spec, nodes);
        if (requested == null) {
            // a MiB request no GPU holds yet: its GPUs are not known, the scheduler's quota check applies when it is
            return;
        }
        if (team.hasMax() && requested.milli() > team.maxMilli()) {
            throw new RequestException(
                    requested.field(),
                    "the job asks for " + requested.milli() / 1000.0 + " GPUs" + requested.counted()
                            + ", but team " + team.name() + " may hold at most " + team.maxMilli() / 1000.0
                            + " (maxGpus): it could never run; ask for at"
                            + " most that, or ask the administrator to raise the team's maxGpus");
        }
        if (!spec.preemptible() && requested.milli() > team.guaranteedMilli()) {
            // the scheduler runs non-preemptible jobs only within the team's guarantee: this one would wait for ever
            throw new RequestException(
                    "preemptible",
                    "is false, and the job asks for " + requested.milli() / 1000.0 + " GPUs" + requested.counted()
                            + ", but team "
                            + team.name() + " is guaranteed " + team.guaranteedMilli() / 1000.0
                            + ": non-preemptible jobs run only within the guarantee, so it could never run; deploy it"
                            + " with preemptible: true to borrow idle GPUs, or ask for at most the guarantee");
        }
    }

    /** What a job asks for in GPU milli, how it was counted (empty unless in MiB), and the field that sets it. */
    private record Requested(long milli, String field, String counted) {

        Requested(long milli, String field) {
            this(milli, field, "");
        }
    }

    /** @return null for a MiB request that no GPU of the cluster holds */
    private static Requested requested(JobSpec spec, Collection<NodeSpec> nodes) {
        if (spec.gpu() instanceof GpuRequest.WholeGpus w) {
            // a gang counts whole: every replica it starts with
            return new Requested(
                    (long) w.count() * 1000 * spec.gang().minReplicas(),
                    spec.gang().spansNodes() ? "replicas" : "gpu.count");
        }
        if (spec.gpu() instanceof GpuRequest.Fraction f) {
            return new Requested((long) f.milli() * f.devices(), "gpuDevices");
        }
        if (spec.gpu() instanceof GpuRequest.Memory m) {
            ResourceDemand demand = Demands.of(spec);
            boolean held = nodes.stream()
                    .anyMatch(node -> node.gpuCount() > 0
                            && demand.allowsModel(node.gpuModel())
                            && demand.milliOn(node) <= ResourceDemand.WHOLE);
            String field = spec.gang().spansNodes() ? "replicas" : m.devices() > 1 ? "gpuDevices" : "gpu.memoryMib";
            return held
                    ? new Requested(
                            Demands.leastMilli(spec, nodes),
                            field,
                            " (" + m.mib() + " MiB on each of " + m.devices() + ", counted on the largest GPUs"
                                    + " of the cluster that hold it)")
                    : null;
        }
        return null;
    }
}
