package io.quotient.deploy;

import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobRecord;
import java.util.List;

/** What the admission of a pod that asks for GPUs decided ({@link PodAdmissions}). */
public sealed interface PodVerdict {

    /**
     * Admit the pod pinned to its job's placement.
     *
     * @param record       the job, Placed or Running
     * @param gpus         its GPUs, every share with the UUID of its reserved GPU
     * @param gpuMemoryMib the memory of one GPU of the chosen node (a share's limits are computed from it)
     */
    record Admit(JobRecord record, List<GpuBinding> gpus, long gpuMemoryMib) implements PodVerdict {
        public Admit {
            gpus = List.copyOf(gpus);
        }
    }

    /** Refuse the create for now; the job waits (its record says why) and a later create of the pod is admitted. */
    record Wait(String reason) implements PodVerdict {}

    /** Refuse the pod: it cannot become a job as it is (bad request, unknown team, name taken). */
    record Refuse(String reason) implements PodVerdict {}
}
