package io.quotient.enforcer.core;

/** Where a pod's utilization of a GPU comes from, published with it so a reader knows how far to trust it. */
public enum UtilizationSource {
    /** The driver's per-process figures, summed over the pod's processes on the GPU (capped at 100 %). */
    PROCESS("process"),
    /** The GPU's own figure: the pod is the only one on the GPU and the driver has no per-process figures. */
    DEVICE("device"),
    /** The GPU's figure split by the pods' shares of the GPU memory their processes use: an estimate. */
    MEMORY_SHARE("memory-share"),
    /** No figure: MIG instances (NVML reports utilization for neither the instance nor its GPU). */
    UNAVAILABLE("unavailable");

    private final String jsonName;

    UtilizationSource(String jsonName) {
        this.jsonName = jsonName;
    }

    public String jsonName() {
        return jsonName;
    }
}
