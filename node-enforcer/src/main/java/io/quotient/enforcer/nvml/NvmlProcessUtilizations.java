package io.quotient.enforcer.nvml;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a device's per-process utilization samples ({@code nvmlDeviceGetProcessUtilization}). The
 * driver is first asked for the count (NULL buffer, answered with INSUFFICIENT_SIZE), then for the
 * samples; as the process list, the count may grow in between, so the read retries a bounded number
 * of times. NOT_SUPPORTED (MIG, pre-Maxwell GPUs, some vGPUs) is an answer, not an error: the
 * caller falls back to the device figure. NOT_FOUND means no process ran a kernel since
 * {@code lastSeenMicros}: an empty list.
 */
final class NvmlProcessUtilizations {

    static final String FUNCTION = "nvmlDeviceGetProcessUtilization";

    private final NvmlLibrary api;
    private final NvmlErrorMessages messages;

    NvmlProcessUtilizations(NvmlLibrary api, NvmlErrorMessages messages) {
        this.api = api;
        this.messages = messages;
    }

    /** The samples newer than {@code lastSeenMicros}; empty when the device does not report them. */
    Optional<List<NvmlProcessUtilization>> read(Pointer device, long lastSeenMicros) {
        IntByReference count = new IntByReference(0);
        int rc = api.nvmlDeviceGetProcessUtilization(device, null, count, lastSeenMicros);
        for (int attempt = 0; attempt < NvmlProcessLists.MAX_ATTEMPTS; attempt++) {
            if (rc == NvmlException.NOT_SUPPORTED || rc == NvmlException.FUNCTION_NOT_FOUND) {
                return Optional.empty();
            }
            if (rc == NvmlException.NOT_FOUND) {
                return Optional.of(List.of());
            }
            if (rc != NvmlException.INSUFFICIENT_SIZE) {
                messages.check(rc, FUNCTION);
                return Optional.of(List.of()); // SUCCESS with a NULL buffer: no samples
            }
            int capacity = Math.max(1, count.getValue() + count.getValue() / 4);
            Memory samples = new Memory((long) capacity * NvmlStructs.ProcessUtilizationSample.SIZE);
            count.setValue(capacity);
            rc = api.nvmlDeviceGetProcessUtilization(device, samples, count, lastSeenMicros);
            if (rc == NvmlException.SUCCESS) {
                return Optional.of(decode(samples, Math.min(count.getValue(), capacity)));
            }
        }
        throw new NvmlException(
                NvmlException.INSUFFICIENT_SIZE,
                FUNCTION,
                "the utilization sample list kept growing over " + NvmlProcessLists.MAX_ATTEMPTS + " attempts");
    }

    private static List<NvmlProcessUtilization> decode(Memory samples, int count) {
        List<NvmlProcessUtilization> decoded = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long base = (long) i * NvmlStructs.ProcessUtilizationSample.SIZE;
            decoded.add(new NvmlProcessUtilization(
                    samples.getInt(base + NvmlStructs.ProcessUtilizationSample.PID),
                    samples.getLong(base + NvmlStructs.ProcessUtilizationSample.TIME_STAMP),
                    samples.getInt(base + NvmlStructs.ProcessUtilizationSample.SM),
                    samples.getInt(base + NvmlStructs.ProcessUtilizationSample.MEMORY)));
        }
        return decoded;
    }
}
