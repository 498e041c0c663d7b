package io.quotient.enforcer.nvml;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * The NVML C API as JNA maps it. Methods name the versioned symbols: JNA does not see the header's
 * macros, and the unversioned names use older struct layouts. Every method returns an nvmlReturn_t.
 */
public interface NvmlLibrary extends Library {

    int nvmlInit_v2();

    int nvmlInitWithFlags(int flags);

    int nvmlShutdown();

    String nvmlErrorString(int result);

    int nvmlSystemGetDriverVersion(byte[] version, int length);

    int nvmlDeviceGetCount_v2(IntByReference count);

    int nvmlDeviceGetHandleByIndex_v2(int index, PointerByReference device);

    int nvmlDeviceGetHandleByUUID(String uuid, PointerByReference device);

    int nvmlDeviceGetIndex(Pointer device, IntByReference index);

    int nvmlDeviceGetUUID(Pointer device, byte[] uuid, int length);

    int nvmlDeviceGetName(Pointer device, byte[] name, int length);

    int nvmlDeviceGetMemoryInfo(Pointer device, NvmlStructs.Memory memory);

    /** Since NVML 11.6 (adds reserved memory); missing on older drivers. */
    int nvmlDeviceGetMemoryInfo_v2(Pointer device, NvmlStructs.MemoryV2 memory);

    /** {@code infos} points at {@code *count} contiguous {@link NvmlStructs.ProcessInfo} (24 bytes each). */
    int nvmlDeviceGetComputeRunningProcesses_v3(Pointer device, IntByReference count, Pointer infos);

    /** Same layout as _v3; the fallback on drivers between the two. */
    int nvmlDeviceGetComputeRunningProcesses_v2(Pointer device, IntByReference count, Pointer infos);

    /** The oldest symbol: {@link NvmlStructs.ProcessInfoV1} entries (16 bytes, no MIG instance ids). */
    int nvmlDeviceGetComputeRunningProcesses(Pointer device, IntByReference count, Pointer infos);

    int nvmlDeviceGetUtilizationRates(Pointer device, NvmlStructs.Utilization utilization);

    /**
     * {@code samples} points at {@code *count} contiguous {@link NvmlStructs.ProcessUtilizationSample}
     * (32 bytes each) or is NULL to ask for the count; only samples newer than {@code lastSeenTimeStamp}
     * (microseconds) are returned.
     */
    int nvmlDeviceGetProcessUtilization(Pointer device, Pointer samples, IntByReference count, long lastSeenTimeStamp);

    int nvmlDeviceGetMigMode(Pointer device, IntByReference currentMode, IntByReference pendingMode);

    int nvmlDeviceGetMaxMigDeviceCount(Pointer device, IntByReference count);

    int nvmlDeviceGetMigDeviceHandleByIndex(Pointer device, int index, PointerByReference migDevice);

    int nvmlDeviceIsMigDeviceHandle(Pointer device, IntByReference isMigDevice);

    int nvmlDeviceGetGpuInstanceId(Pointer device, IntByReference id);

    int nvmlDeviceGetComputeInstanceId(Pointer device, IntByReference id);

    int nvmlDeviceGetDeviceHandleFromMigDeviceHandle(Pointer migDevice, PointerByReference device);
}
