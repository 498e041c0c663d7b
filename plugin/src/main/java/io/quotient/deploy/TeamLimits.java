package io.quotient.deploy;

import io.quotient.core.scheduling.GpuRequest;
import io.quotient.core.scheduling.JobSpec;
import io.quotient.core.scheduling.RequestException;
import io.quotient.core.scheduling.Team;

/**
 * Refuses a new job that alone asks for more GPUs than its team may ever hold ({@code maxGpus}): it would wait for
 * ever whatever the cluster, since only the teams file can change the limit. Checked on new deploys only: a stored job
 * of a team whose maximum was lowered since is kept (and waits), not failed.
 */
final class TeamLimits {

    private TeamLimits() {
    }

    /** @throws RequestException naming the field and the team's maximum */
    static void checkWithinMax(JobSpec spec, Team team) {
        if (team == null || !team.hasMax()) {
            return;
        }
        long milli;
        String field;
        if (spec.gpu() instanceof GpuRequest.WholeGpus w) {
            // a gang counts whole: every replica it starts with
            milli = (long) w.count() * 1000 * spec.gang().minReplicas();
            field = spec.gang().spansNodes() ? "replicas" : "gpu.count";
        } else if (spec.gpu() instanceof GpuRequest.Fraction f) {
            milli = (long) f.milli() * f.devices();
            field = "gpuDevices";
        } else {
            // a MiB request is counted in GPUs only on a node (its GPU memory): the scheduler's quota check applies
            return;
        }
        if (milli > team.maxMilli()) {
            throw new RequestException(field, "the job asks for " + milli / 1000.0 + " GPUs, but team " + team.name()
                    + " may hold at most " + team.maxMilli() / 1000.0 + " (maxGpus): it could never run; ask for at"
                    + " most that, or ask the administrator to raise the team's maxGpus");
        }
    }
}
