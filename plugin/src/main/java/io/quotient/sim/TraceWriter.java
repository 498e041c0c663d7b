package io.quotient.sim;

import io.quotient.core.cluster.ResourceDemand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.List;
import java.util.TreeSet;

/**
 * Writes a pod list in the openb format (the 11 columns of cluster-trace-gpu-v2023, {@link TraceReader} reads it
 * back). Generated pods have no QoS class, phase or times of their own, so those columns stay empty; models in
 * {@code gpu_spec} are sorted and joined by {@code |}.
 */
public final class TraceWriter {

    static final String HEADER =
            "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time";

    private TraceWriter() {}

    public static void write(List<TracePod> pods, Writer out) {
        try {
            out.write(HEADER);
            out.write('\n');
            for (TracePod pod : pods) {
                ResourceDemand d = pod.demand();
                if (d.gpuMemoryMib() > 0) {
                    throw new IllegalArgumentException("pod " + pod.name() + " asks for GPU memory in MiB, which the "
                            + "openb format cannot express; give its share in milli");
                }
                out.write(pod.name() + "," + d.cpuMilli() + "," + d.memoryMib() + "," + d.gpuCount() + ","
                        + (d.needsGpu() ? d.gpuMilli() : 0) + "," + String.join("|", new TreeSet<>(d.allowedModels()))
                        + ",,,,,\n");
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the pod list: " + e.getMessage(), e);
        }
    }
}
