package io.quotient.sim;

import io.quotient.core.cluster.ResourceDemand;

/** One pod of a trace: its name (the sort key of the protocol) and what it asks for. */
public record TracePod(String name, ResourceDemand demand) {

    /** GPU milli the pod asks for in total (count × per-GPU share), the unit of the arrived %. */
    public long gpuMilli() {
        return (long) demand.gpuCount() * demand.gpuMilli();
    }
}
