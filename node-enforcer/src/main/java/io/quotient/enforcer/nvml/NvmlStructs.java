package io.quotient.enforcer.nvml;

import com.sun.jna.Structure;

/** NVML structs with their exact x86_64 / aarch64 layouts (natural alignment). */
public final class NvmlStructs {

    private NvmlStructs() {}

    /** nvmlMemory_t, 24 bytes. */
    @Structure.FieldOrder({"total", "free", "used"})
    public static class Memory extends Structure {
        public long total;
        public long free;
        public long used;
    }

    /** nvmlMemory_v2_t, 40 bytes: version @0, total @8, reserved @16, free @24, used @32. */
    @Structure.FieldOrder({"version", "total", "reserved", "free", "used"})
    public static class MemoryV2 extends Structure {
        /** sizeof(nvmlMemory_v2_t) | (2 << 24): the driver rejects any other value with code 25. */
        public static final int VERSION_2 = 40 | (2 << 24);

        public int version = VERSION_2;
        public long total;
        public long reserved;
        public long free;
        public long used;
    }

    /**
     * nvmlProcessInfo_t (what _v3 and _v2 take), 24 bytes: pid @0, usedGpuMemory @8, gpuInstanceId @16,
     * computeInstanceId @20. Lists are read straight from native memory at these offsets (see
     * {@link NvmlProcessLists}); this class documents and tests the layout.
     */
    @Structure.FieldOrder({"pid", "usedGpuMemory", "gpuInstanceId", "computeInstanceId"})
    public static class ProcessInfo extends Structure {
        public static final int SIZE = 24;
        public static final int PID = 0;
        public static final int USED = 8;
        public static final int GPU_INSTANCE = 16;
        public static final int COMPUTE_INSTANCE = 20;

        public int pid;
        public long usedGpuMemory;
        public int gpuInstanceId;
        public int computeInstanceId;

        public int offsetOf(String field) {
            return fieldOffset(field);
        }
    }

    /** nvmlProcessInfo_v1_t (the unversioned symbol), 16 bytes: pid @0, usedGpuMemory @8. */
    @Structure.FieldOrder({"pid", "usedGpuMemory"})
    public static class ProcessInfoV1 extends Structure {
        public static final int SIZE = 16;

        public int pid;
        public long usedGpuMemory;

        public int offsetOf(String field) {
            return fieldOffset(field);
        }
    }

    /** nvmlUtilization_t, 8 bytes: percentages over the last sample period. */
    @Structure.FieldOrder({"gpu", "memory"})
    public static class Utilization extends Structure {
        public int gpu;
        public int memory;
    }

    /**
     * nvmlProcessUtilizationSample_t, 32 bytes: pid @0, timeStamp @8 (CPU time, microseconds), smUtil @16,
     * memUtil @20, encUtil @24, decUtil @28. Samples are read straight from native memory at these
     * offsets (see {@link NvmlProcessUtilizations}); this class documents and tests the layout.
     */
    @Structure.FieldOrder({"pid", "timeStamp", "smUtil", "memUtil", "encUtil", "decUtil"})
    public static class ProcessUtilizationSample extends Structure {
        public static final int SIZE = 32;
        public static final int PID = 0;
        public static final int TIME_STAMP = 8;
        public static final int SM = 16;
        public static final int MEMORY = 20;

        public int pid;
        public long timeStamp;
        public int smUtil;
        public int memUtil;
        public int encUtil;
        public int decUtil;

        public int offsetOf(String field) {
            return fieldOffset(field);
        }
    }
}
