package io.quotient.adapters.hook;

import io.quotient.core.model.JobId;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import java.util.List;

/**
 * What Quotient decided for a job, as the REST answer carries it: placed (node, GPUs, quota state; REST 201) or
 * pending with the reason (REST 202).
 */
public record HookDecision(JobRecord record) {

    public JobId job() {
        return record.id();
    }

    public JobPhase phase() {
        return record.phase();
    }

    /** Whether the job holds its node and GPUs now. */
    public boolean placed() {
        return record.phase().holdsCapacity();
    }

    /** Whether the job waits for capacity; {@link #reason()} says why. */
    public boolean pending() {
        return record.phase().waiting();
    }

    public String node() {
        return record.status().node();
    }

    public List<GpuBinding> gpus() {
        return record.status().gpus();
    }

    /** {@code InQuota} or {@code OverQuota} (preemptible) once placed; null while pending. */
    public String quotaState() {
        return record.status().quotaState() == null
                ? null
                : record.status().quotaState().wireName();
    }

    public String reason() {
        return record.status().reason();
    }
}
