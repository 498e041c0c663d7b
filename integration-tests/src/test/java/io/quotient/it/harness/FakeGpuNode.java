package io.quotient.it.harness;

import java.util.List;

/**
 * A fake GPU node as created in the cluster.
 *
 * @param name     the node's name (also its {@code kubernetes.io/hostname})
 * @param spec     what it offers
 * @param gpuUuids the fake UUIDs of its GPUs, by index, as in its {@code quotient.io/gpu-report}
 */
public record FakeGpuNode(String name, FakeGpuNodeSpec spec, List<String> gpuUuids) {

    public FakeGpuNode {
        gpuUuids = List.copyOf(gpuUuids);
    }
}
