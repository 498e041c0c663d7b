package io.quotient.enforcer.nvml;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The NVML binding: loads libnvidia-ml, initialises it, and turns every error into an
 * {@link NvmlException}. Symbols newer than the driver (the _v3 process list, _v2 memory info) are
 * probed once at load and replaced by the older ones when missing. Thread-safe, as NVML is.
 */
public final class Nvml implements AutoCloseable {

    /** Drivers ship libnvidia-ml.so.1, often without the bare .so; -Djna.library.path is searched first. */
    public static final List<String> DEFAULT_LIBRARY_NAMES = List.of("nvidia-ml", "libnvidia-ml.so.1");

    private static final int UUID_LENGTH = 96;
    private static final int NAME_LENGTH = 96;
    private static final int DRIVER_VERSION_LENGTH = 80;

    private final NvmlLibrary api;
    private final String libraryName;
    private final boolean memoryV2;
    private final NvmlErrorMessages messages;
    private volatile NvmlProcessLists processLists;
    private final NvmlProcessUtilizations processUtilizations;
    private boolean closed;

    private Nvml(NvmlLibrary api, NativeLibrary library, String libraryName) {
        this.api = api;
        this.libraryName = libraryName;
        this.messages = api::nvmlErrorString;
        this.memoryV2 = hasSymbol(library, "nvmlDeviceGetMemoryInfo_v2");
        this.processLists = new NvmlProcessLists(bestProcessVariant(library), messages);
        this.processUtilizations = hasSymbol(library, NvmlProcessUtilizations.FUNCTION)
                ? new NvmlProcessUtilizations(api, messages)
                : null;
    }

    /** Loads the first library of {@code names} that exists and initialises NVML. */
    public static Nvml open(List<String> names) {
        StringBuilder tried = new StringBuilder();
        for (String name : names) {
            NativeLibrary library;
            try {
                library = NativeLibrary.getInstance(name);
            } catch (UnsatisfiedLinkError e) {
                tried.append("\n  ").append(name).append(": ").append(e.getMessage());
                continue;
            }
            Nvml nvml = new Nvml(Native.load(name, NvmlLibrary.class), library, name);
            nvml.messages.check(nvml.api.nvmlInit_v2(), "nvmlInit_v2");
            return nvml;
        }
        throw new NvmlException(
                NvmlException.LIBRARY_NOT_FOUND,
                "dlopen",
                "no NVML library could be loaded (is the NVIDIA driver installed and the container started with the "
                        + "nvidia runtime class?); tried:" + tried);
    }

    public String libraryName() {
        return libraryName;
    }

    /** The symbol used for process lists: _v3, else _v2, else the unversioned one. */
    public String processListFunction() {
        return processLists.function();
    }

    public boolean hasMemoryInfoV2() {
        return memoryV2;
    }

    public String driverVersion() {
        return readText("nvmlSystemGetDriverVersion", DRIVER_VERSION_LENGTH, api::nvmlSystemGetDriverVersion);
    }

    public int deviceCount() {
        return readInt("nvmlDeviceGetCount_v2", api::nvmlDeviceGetCount_v2);
    }

    public Pointer handle(int index) {
        return readPointer("nvmlDeviceGetHandleByIndex_v2", out -> api.nvmlDeviceGetHandleByIndex_v2(index, out));
    }

    public Pointer handleByUuid(String uuid) {
        return readPointer("nvmlDeviceGetHandleByUUID", out -> api.nvmlDeviceGetHandleByUUID(uuid, out));
    }

    public int index(Pointer device) {
        return readInt("nvmlDeviceGetIndex", out -> api.nvmlDeviceGetIndex(device, out));
    }

    public String uuid(Pointer device) {
        return readText(
                "nvmlDeviceGetUUID", UUID_LENGTH, (buffer, length) -> api.nvmlDeviceGetUUID(device, buffer, length));
    }

    public String name(Pointer device) {
        return readText(
                "nvmlDeviceGetName", NAME_LENGTH, (buffer, length) -> api.nvmlDeviceGetName(device, buffer, length));
    }

    public NvmlMemoryInfo memory(Pointer device) {
        if (memoryV2) {
            NvmlStructs.MemoryV2 memory = new NvmlStructs.MemoryV2();
            messages.check(api.nvmlDeviceGetMemoryInfo_v2(device, memory), "nvmlDeviceGetMemoryInfo_v2");
            return new NvmlMemoryInfo(memory.total, memory.reserved, memory.free, memory.used);
        }
        NvmlStructs.Memory memory = new NvmlStructs.Memory();
        messages.check(api.nvmlDeviceGetMemoryInfo(device, memory), "nvmlDeviceGetMemoryInfo");
        return new NvmlMemoryInfo(memory.total, 0, memory.free, memory.used);
    }

    /** Compute processes with their memory, through the newest symbol the driver has. */
    public List<NvmlProcess> computeProcesses(Pointer device) {
        try {
            return processLists.read(device);
        } catch (NvmlException e) {
            // Some driver stubs export a newer symbol but answer FUNCTION_NOT_FOUND: step down to the oldest one.
            if (e.code() != NvmlException.FUNCTION_NOT_FOUND
                    || processLists.function().equals(legacyVariant().function())) {
                throw e;
            }
            processLists = new NvmlProcessLists(legacyVariant(), messages);
            return processLists.read(device);
        }
    }

    /** GPU and memory-controller utilization in percent; empty where not supported (e.g. MIG devices). */
    public Optional<NvmlStructs.Utilization> utilization(Pointer device) {
        NvmlStructs.Utilization utilization = new NvmlStructs.Utilization();
        int rc = api.nvmlDeviceGetUtilizationRates(device, utilization);
        if (rc == NvmlException.NOT_SUPPORTED) {
            return Optional.empty();
        }
        messages.check(rc, "nvmlDeviceGetUtilizationRates");
        return Optional.of(utilization);
    }

    /**
     * Per-process utilization samples newer than {@code lastSeenMicros} (0: all the driver keeps); empty
     * where the device or driver does not report them (MIG, older GPUs), an empty list when no process
     * ran a kernel since. A process may have several samples, or none when it was idle.
     */
    public Optional<List<NvmlProcessUtilization>> processUtilization(Pointer device, long lastSeenMicros) {
        return processUtilizations == null ? Optional.empty() : processUtilizations.read(device, lastSeenMicros);
    }

    /** Whether MIG is on for this GPU; false for GPUs that cannot do MIG. */
    public boolean migEnabled(Pointer device) {
        IntByReference current = new IntByReference();
        IntByReference pending = new IntByReference();
        int rc = api.nvmlDeviceGetMigMode(device, current, pending);
        if (rc == NvmlException.NOT_SUPPORTED) {
            return false;
        }
        messages.check(rc, "nvmlDeviceGetMigMode");
        return current.getValue() == 1;
    }

    /** Handles of the MIG devices that exist on this GPU (slots without an instance are skipped). */
    public List<Pointer> migDevices(Pointer device) {
        IntByReference max = new IntByReference();
        messages.check(api.nvmlDeviceGetMaxMigDeviceCount(device, max), "nvmlDeviceGetMaxMigDeviceCount");
        List<Pointer> devices = new ArrayList<>();
        for (int i = 0; i < max.getValue(); i++) {
            PointerByReference mig = new PointerByReference();
            int rc = api.nvmlDeviceGetMigDeviceHandleByIndex(device, i, mig);
            if (rc == NvmlException.NOT_FOUND) {
                continue;
            }
            messages.check(rc, "nvmlDeviceGetMigDeviceHandleByIndex");
            devices.add(mig.getValue());
        }
        return devices;
    }

    public boolean isMigDevice(Pointer device) {
        return readInt("nvmlDeviceIsMigDeviceHandle", out -> api.nvmlDeviceIsMigDeviceHandle(device, out)) != 0;
    }

    public int gpuInstanceId(Pointer migDevice) {
        return readInt("nvmlDeviceGetGpuInstanceId", out -> api.nvmlDeviceGetGpuInstanceId(migDevice, out));
    }

    public int computeInstanceId(Pointer migDevice) {
        return readInt("nvmlDeviceGetComputeInstanceId", out -> api.nvmlDeviceGetComputeInstanceId(migDevice, out));
    }

    public Pointer parentOf(Pointer migDevice) {
        return readPointer(
                "nvmlDeviceGetDeviceHandleFromMigDeviceHandle",
                out -> api.nvmlDeviceGetDeviceHandleFromMigDeviceHandle(migDevice, out));
    }

    /** Releases this reference to NVML (init is reference-counted); errors are swallowed, there is nothing to do. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            api.nvmlShutdown();
        }
    }

    /** An NVML call that returns its result through an int out-parameter. */
    @FunctionalInterface
    private interface IntCall {
        int call(IntByReference out);
    }

    /** An NVML call that returns its result through a pointer out-parameter. */
    @FunctionalInterface
    private interface PointerCall {
        int call(PointerByReference out);
    }

    /** An NVML call that writes a NUL-terminated string into a caller's buffer. */
    @FunctionalInterface
    private interface TextCall {
        int call(byte[] buffer, int length);
    }

    private int readInt(String function, IntCall call) {
        IntByReference out = new IntByReference();
        messages.check(call.call(out), function);
        return out.getValue();
    }

    private Pointer readPointer(String function, PointerCall call) {
        PointerByReference out = new PointerByReference();
        messages.check(call.call(out), function);
        return out.getValue();
    }

    private String readText(String function, int length, TextCall call) {
        byte[] buffer = new byte[length];
        messages.check(call.call(buffer, buffer.length), function);
        return Native.toString(buffer);
    }

    private NvmlProcessLists.Variant bestProcessVariant(NativeLibrary library) {
        if (hasSymbol(library, "nvmlDeviceGetComputeRunningProcesses_v3")) {
            return new NvmlProcessLists.Variant(
                    "nvmlDeviceGetComputeRunningProcesses_v3",
                    api::nvmlDeviceGetComputeRunningProcesses_v3,
                    NvmlStructs.ProcessInfo.SIZE,
                    true);
        }
        if (hasSymbol(library, "nvmlDeviceGetComputeRunningProcesses_v2")) {
            return new NvmlProcessLists.Variant(
                    "nvmlDeviceGetComputeRunningProcesses_v2",
                    api::nvmlDeviceGetComputeRunningProcesses_v2,
                    NvmlStructs.ProcessInfo.SIZE,
                    true);
        }
        return legacyVariant();
    }

    private NvmlProcessLists.Variant legacyVariant() {
        return new NvmlProcessLists.Variant(
                "nvmlDeviceGetComputeRunningProcesses",
                api::nvmlDeviceGetComputeRunningProcesses,
                NvmlStructs.ProcessInfoV1.SIZE,
                false);
    }

    private static boolean hasSymbol(NativeLibrary library, String symbol) {
        try {
            library.getFunction(symbol);
            return true;
        } catch (UnsatisfiedLinkError e) {
            return false;
        }
    }
}
