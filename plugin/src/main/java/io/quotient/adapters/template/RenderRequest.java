package io.quotient.adapters.template;

import io.quotient.core.model.PlacedJob;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobRecord;
import java.util.List;
import java.util.Objects;

/**
 * Everything one rendering needs: the job's record (what the user asked for), where the scheduler put it,
 * and the facts of the chosen node.
 *
 * @param namespace    namespace of the rendered object
 * @param objectName   name of the rendered object (deterministic per job, so a re-render finds the same object)
 * @param gpus         the GPUs the job uses on the node; fractional ones carry the UUID of their reservation
 * @param gpuMemoryMib memory of one GPU of the chosen node; converts fractions into the byte limits of the env
 */
public record RenderRequest(
        String namespace,
        String objectName,
        JobRecord record,
        PlacedJob placement,
        List<GpuBinding> gpus,
        long gpuMemoryMib) {

    public RenderRequest {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(objectName, "objectName");
        Objects.requireNonNull(record, "record");
        Objects.requireNonNull(placement, "placement");
        gpus = gpus == null ? List.of() : List.copyOf(gpus);
    }
}
