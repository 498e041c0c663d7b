package io.quotient.enforcer.nvml;

/**
 * A compute process on a device. {@code usedBytes} is -1 when the driver cannot tell (never sum it);
 * the instance ids are -1 when MIG is off or the driver predates them.
 */
public record NvmlProcess(int pid, long usedBytes, int gpuInstanceId, int computeInstanceId) {

    /** NVML_VALUE_NOT_AVAILABLE for unsigned long long. */
    static final long NOT_AVAILABLE = -1L;
}
