package io.quotient.enforcer.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Turns one snapshot into what each pod used of each GPU this cycle. A pod is on a GPU when one of
 * its processes is, or when a container of it is bound to the GPU ({@code NVIDIA_VISIBLE_DEVICES}):
 * a pod that holds a GPU and never touches it is exactly the idle pod the report must show, at 0 %.
 *
 * <p>A pod's utilization of a GPU is, in order of preference: the sum of the driver's per-process
 * figures for its processes there; else the GPU's own figure when the pod is alone on it; else the
 * GPU's figure split by the pods' shares of the memory their processes use there (equal shares when
 * none uses any); else unavailable (MIG). Processes outside pods (host tools) are not attributed.
 * Pure: the same snapshot gives the same readings.
 */
public final class UsageAttribution {

    private final BudgetConventions conventions;

    public UsageAttribution(BudgetConventions conventions) {
        this.conventions = conventions;
    }

    /** One pod's processes and memory on one GPU, gathered before its utilization is known. */
    private static final class Holder {
        final PodRef pod;
        final Set<Integer> pids = new LinkedHashSet<>();
        long memoryBytes;

        Holder(PodRef pod) {
            this.pod = pod;
        }
    }

    public List<PodGpuReading> attribute(NodeSnapshot snapshot) {
        Map<String, PodInfo> pods =
                snapshot.pods().stream().collect(Collectors.toMap(PodInfo::uid, p -> p, (a, b) -> a));
        Map<String, List<ObservedProcess>> byGpu = snapshot.processes().stream()
                .collect(Collectors.groupingBy(p -> p.process().gpuUuid()));
        Set<String> migParents = snapshot.gpus().devices().stream()
                .filter(GpuDevice::isMigInstance)
                .map(GpuDevice::parentUuid)
                .collect(Collectors.toSet());
        Map<String, Set<String>> bound = boundGpus(snapshot.pods());
        List<PodGpuReading> readings = new ArrayList<>();
        for (GpuDevice gpu : snapshot.gpus().devices()) {
            if (migParents.contains(gpu.uuid())) {
                continue; // its pods run on its MIG instances, which are listed as devices of their own
            }
            Map<String, Holder> holders = holders(gpu, byGpu.getOrDefault(gpu.uuid(), List.of()), pods, bound);
            readings.addAll(readings(gpu, holders.values(), snapshot.gpus().processUtilization(gpu.uuid())));
        }
        return readings;
    }

    private Map<String, Holder> holders(
            GpuDevice gpu, List<ObservedProcess> processes, Map<String, PodInfo> pods, Map<String, Set<String>> bound) {
        Map<String, Holder> holders = new LinkedHashMap<>();
        for (ObservedProcess process : processes) {
            PodInfo pod =
                    process.identity().inPod() ? pods.get(process.identity().podUid()) : null;
            if (pod == null) {
                continue;
            }
            Holder holder = holders.computeIfAbsent(pod.uid(), uid -> new Holder(PodRef.of(pod)));
            // the same PID may be listed more than once (graphics and compute contexts): count it once
            if (holder.pids.add(process.process().pid()) && process.hasKnownUsage()) {
                holder.memoryBytes += process.process().usedBytes();
            }
        }
        for (PodInfo pod : pods.values()) {
            if (bound.getOrDefault(pod.uid(), Set.of()).contains(gpu.uuid())) {
                holders.computeIfAbsent(pod.uid(), uid -> new Holder(PodRef.of(pod)));
            }
        }
        return holders;
    }

    private static List<PodGpuReading> readings(
            GpuDevice gpu, Collection<Holder> holders, Optional<ProcessUtilization> perProcess) {
        long totalMemory = holders.stream().mapToLong(h -> h.memoryBytes).sum();
        List<PodGpuReading> readings = new ArrayList<>(holders.size());
        for (Holder holder : holders) {
            UtilizationSource source;
            double percent;
            if (perProcess.isPresent()) {
                source = UtilizationSource.PROCESS;
                percent = Math.min(
                        100,
                        holder.pids.stream()
                                .mapToInt(perProcess.get()::smPercent)
                                .sum());
            } else if (gpu.utilizationPercent() < 0) {
                source = UtilizationSource.UNAVAILABLE;
                percent = -1;
            } else if (holders.size() == 1) {
                source = UtilizationSource.DEVICE;
                percent = gpu.utilizationPercent();
            } else {
                source = UtilizationSource.MEMORY_SHARE;
                double share = totalMemory > 0 ? (double) holder.memoryBytes / totalMemory : 1.0 / holders.size();
                percent = gpu.utilizationPercent() * share;
            }
            readings.add(new PodGpuReading(holder.pod, gpu.uuid(), source, percent, holder.memoryBytes));
        }
        return readings;
    }

    /** The GPU UUIDs each pod's regular containers are bound to, by pod UID. */
    private Map<String, Set<String>> boundGpus(List<PodInfo> pods) {
        Map<String, Set<String>> bound = new HashMap<>();
        for (PodInfo pod : pods) {
            for (ContainerInfo container : pod.containers()) {
                if (!container.init()) {
                    bound.computeIfAbsent(pod.uid(), uid -> new LinkedHashSet<>())
                            .addAll(conventions.boundGpus(container));
                }
            }
        }
        return bound;
    }
}
