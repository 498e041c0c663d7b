package io.quotient.deploy;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.Team;
import io.quotient.core.request.JobSpecValidator;
import io.quotient.core.request.RequestException;

/**
 * The team's own limits on a new job: no more GPUs than the team may ever hold ({@code maxGpus}; such a job would wait
 * for ever whatever the cluster, since only the teams file can change the limit), and no longer minimum runtime than
 * the team's {@code maxMinRuntimeSeconds}. Checked on new deploys only: a stored job of a team whose limits were
 * lowered since is kept, not failed (its minimum runtime stays within the cluster's maximum, which every read checks).
 */
final class TeamLimits {

    private TeamLimits() {}

    /** @throws RequestException naming the field and the team's limit */
    static void check(JobSpec spec, Team team) {
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
        if (team.hasMax()) {
            checkWithinMax(spec, team);
        }
    }

    private static void checkWithinMax(JobSpec spec, Team team) {
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
            throw new RequestException(
                    field,
                    "the job asks for " + milli / 1000.0 + " GPUs, but team " + team.name()
                            + " may hold at most " + team.maxMilli() / 1000.0
                            + " (maxGpus): it could never run; ask for at"
                            + " most that, or ask the administrator to raise the team's maxGpus");
        }
    }
}
