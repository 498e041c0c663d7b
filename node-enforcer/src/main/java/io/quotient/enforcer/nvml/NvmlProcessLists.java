package io.quotient.enforcer.nvml;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a device's compute process list. The list changes between calls, so the read is a loop:
 * call with a capacity; on INSUFFICIENT_SIZE grow (at least double, at least to the size the driver
 * asked for) and call again, a bounded number of times. Entries are read straight from native memory
 * at the struct's offsets (no per-entry reflection), and only the first {@code *count} after SUCCESS.
 */
final class NvmlProcessLists {

    @FunctionalInterface
    interface ListCall {
        int call(Pointer device, IntByReference count, Pointer infos);
    }

    /** Which symbol and struct layout this driver offers. */
    record Variant(String function, ListCall call, int entrySize, boolean hasInstanceIds) {}

    static final int MAX_ATTEMPTS = 8;
    private static final int FIRST_CAPACITY = 16;

    private final Variant variant;
    private final NvmlErrorMessages messages;
    private int capacityHint = FIRST_CAPACITY;

    NvmlProcessLists(Variant variant, NvmlErrorMessages messages) {
        this.variant = variant;
        this.messages = messages;
    }

    String function() {
        return variant.function();
    }

    List<NvmlProcess> read(Pointer device) {
        int capacity = capacityHint;
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            Memory infos = new Memory((long) capacity * variant.entrySize());
            IntByReference count = new IntByReference(capacity);
            int rc = variant.call().call(device, count, infos);
            if (rc == NvmlException.SUCCESS) {
                return decode(infos, Math.min(count.getValue(), capacity));
            }
            if (rc != NvmlException.INSUFFICIENT_SIZE) {
                throw messages.exception(rc, variant.function());
            }
            capacity = Math.max(capacity * 2, count.getValue() + count.getValue() / 4);
            capacityHint = Math.max(capacityHint, capacity);
        }
        throw new NvmlException(
                NvmlException.INSUFFICIENT_SIZE,
                variant.function(),
                "the process list kept growing past " + capacity + " entries over " + MAX_ATTEMPTS + " attempts");
    }

    private List<NvmlProcess> decode(Memory infos, int count) {
        List<NvmlProcess> processes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long base = (long) i * variant.entrySize();
            int pid = infos.getInt(base + NvmlStructs.ProcessInfo.PID);
            long used = infos.getLong(base + NvmlStructs.ProcessInfo.USED);
            int gi = variant.hasInstanceIds() ? infos.getInt(base + NvmlStructs.ProcessInfo.GPU_INSTANCE) : -1;
            int ci = variant.hasInstanceIds() ? infos.getInt(base + NvmlStructs.ProcessInfo.COMPUTE_INSTANCE) : -1;
            processes.add(new NvmlProcess(pid, used, gi, ci));
        }
        return processes;
    }
}
