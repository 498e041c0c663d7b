package io.quotient.enforcer.nvml;

import com.sun.jna.Pointer;
import io.quotient.enforcer.core.GpuDevice;
import io.quotient.enforcer.core.GpuProcess;
import io.quotient.enforcer.core.GpuReader;
import io.quotient.enforcer.core.GpuSample;
import io.quotient.enforcer.core.GpuUnavailableException;
import io.quotient.enforcer.core.ProcessUtilization;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the node's GPUs through NVML for the enforcement cycle. With MIG on, each MIG instance is a
 * device of its own (memory and processes are per instance) and the physical GPU is listed too, for
 * the report. Per-process utilization is read where the driver reports it (not on MIG), as the samples
 * taken since the previous read of that GPU. NVML is opened lazily and re-opened after the driver or a GPU was lost, so the agent
 * recovers on its own instead of crash-looping.
 */
public final class NvmlGpuReader implements GpuReader, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NvmlGpuReader.class);

    private record Identity(String uuid, String model) {}

    private final Supplier<Nvml> opener;
    private Nvml nvml;
    private String driverVersion;
    private String lastAnnounced = "";
    private final Map<Integer, Identity> identities = new HashMap<>();
    /** Per GPU index, the driver timestamp (microseconds) of the newest utilization sample read. */
    private final Map<Integer, Long> lastSampleMicros = new HashMap<>();
    /** GPU and error code pairs already logged, so a GPU that always fails is said once, not twice a second. */
    private final Set<String> perProcessFailures = new HashSet<>();

    public NvmlGpuReader(Supplier<Nvml> opener) {
        this.opener = opener;
    }

    @Override
    public synchronized GpuSample read() {
        try {
            Nvml api = open();
            int count = api.deviceCount();
            List<GpuDevice> devices = new ArrayList<>(count);
            List<GpuProcess> processes = new ArrayList<>();
            List<ProcessUtilization> utilization = new ArrayList<>();
            for (int index = 0; index < count; index++) {
                readDevice(api, index, devices, processes).ifPresent(utilization::add);
            }
            return new GpuSample(driverVersion, devices, processes, utilization);
        } catch (NvmlException e) {
            if (e.isDeviceOrDriverLost()) {
                reset();
            }
            throw new GpuUnavailableException(
                    "cannot read the GPUs through NVML: " + e.getMessage()
                            + "; no fractions should be placed on this node until the driver and GPUs are healthy again",
                    e);
        }
    }

    /** Adds the GPU (and its MIG instances) with their processes; returns its per-process utilization, if any. */
    private Optional<ProcessUtilization> readDevice(
            Nvml api, int index, List<GpuDevice> devices, List<GpuProcess> processes) {
        Pointer handle = api.handle(index);
        Identity identity = identities.computeIfAbsent(index, i -> new Identity(api.uuid(handle), api.name(handle)));
        NvmlMemoryInfo memory = api.memory(handle);
        int utilization = api.utilization(handle).map(u -> u.gpu).orElse(-1);
        devices.add(new GpuDevice(
                index,
                identity.uuid(),
                identity.model(),
                memory.total(),
                memory.used(),
                memory.free(),
                utilization,
                ""));
        if (!api.migEnabled(handle)) {
            addProcesses(api, handle, identity.uuid(), processes);
            return processUtilization(api, index, handle, identity.uuid());
        }
        for (Pointer mig : api.migDevices(handle)) {
            String migUuid = api.uuid(mig);
            NvmlMemoryInfo migMemory = api.memory(mig);
            devices.add(new GpuDevice(
                    index,
                    migUuid,
                    identity.model(),
                    migMemory.total(),
                    migMemory.used(),
                    migMemory.free(),
                    -1,
                    identity.uuid()));
            addProcesses(api, mig, migUuid, processes);
        }
        return Optional.empty(); // NVML has no per-process (nor device) utilization with MIG on
    }

    /**
     * The mean of each process's samples since the last read; a GPU may give several per process. An error that
     * does not mean the GPU or driver is gone (NO_PERMISSION in a restricted container, UNKNOWN) costs only the
     * per-process figures: the pods then get the device figure, and enforcement goes on.
     */
    private Optional<ProcessUtilization> processUtilization(Nvml api, int index, Pointer handle, String uuid) {
        Optional<List<NvmlProcessUtilization>> samples;
        try {
            samples = api.processUtilization(handle, lastSampleMicros.getOrDefault(index, 0L));
        } catch (NvmlException e) {
            if (e.isDeviceOrDriverLost()) {
                throw e;
            }
            if (perProcessFailures.add(uuid + "/" + e.code())) {
                LOG.warn(
                        "GPU {}: no per-process utilization ({}); its pods get the GPU's own figure",
                        uuid,
                        e.getMessage());
            }
            return Optional.empty();
        }
        samples.flatMap(s ->
                        s.stream().map(NvmlProcessUtilization::timestampMicros).max(Long::compare))
                .ifPresent(newest -> lastSampleMicros.merge(index, newest, Math::max));
        return samples.map(s -> new ProcessUtilization(
                uuid,
                s.stream()
                        .collect(Collectors.groupingBy(
                                NvmlProcessUtilization::pid,
                                Collectors.collectingAndThen(
                                        Collectors.averagingInt(NvmlProcessUtilization::smPercent),
                                        mean -> (int) Math.round(Math.min(100, mean)))))));
    }

    private static void addProcesses(Nvml api, Pointer handle, String uuid, List<GpuProcess> processes) {
        for (NvmlProcess process : api.computeProcesses(handle)) {
            processes.add(new GpuProcess(process.pid(), uuid, process.usedBytes()));
        }
    }

    private Nvml open() {
        if (nvml == null) {
            Nvml opened = opener.get();
            try {
                driverVersion = opened.driverVersion();
            } catch (NvmlException e) {
                opened.close();
                throw e;
            }
            identities.clear();
            lastSampleMicros.clear();
            nvml = opened;
            String loaded = String.format(
                    "NVML %s loaded from %s (driver %s, process list through %s)",
                    opened.hasMemoryInfoV2() ? "11.6+" : "legacy",
                    opened.libraryName(),
                    driverVersion,
                    opened.processListFunction());
            // While a GPU is lost NVML is re-opened every cycle: say it once, not twice a second.
            if (!loaded.equals(lastAnnounced)) {
                LOG.info(loaded);
                lastAnnounced = loaded;
            } else {
                LOG.debug(loaded);
            }
        }
        return nvml;
    }

    private void reset() {
        if (nvml != null) {
            nvml.close();
            nvml = null;
        }
    }

    @Override
    public synchronized void close() {
        reset();
    }
}
