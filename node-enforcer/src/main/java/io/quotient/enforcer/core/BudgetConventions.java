package io.quotient.enforcer.core;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads a container's GPU memory request and limit from the conventions in use, first match wins:
 * <ol>
 *   <li>Quotient's env {@code GPU_MEMORY_REQUEST} / {@code GPU_MEMORY_LIMIT} (bytes per GPU, written by
 *       the deployer, so the most precise);</li>
 *   <li>KAI's per-container annotations {@code nvidia.com/container.<name>.gpu-memory.request|limit}
 *       (a plain number is MiB, or a quantity such as {@code 4Gi});</li>
 *   <li>pod annotations {@code gpu-fraction} or {@code gpu-memory} (MiB), with the limit from
 *       {@code gpu-fraction-limit}, {@code gpu-memory-limit} or Run:ai's env
 *       {@code RUNAI_GPU_MEMORY_LIMIT}; they apply to the container named by
 *       {@code gpu-fraction-container-name} (default: the first container).</li>
 * </ol>
 * A missing limit means no bursting (limit = request).
 */
public final class BudgetConventions {

    public static final String ENV_REQUEST = "GPU_MEMORY_REQUEST";
    public static final String ENV_LIMIT = "GPU_MEMORY_LIMIT";
    public static final String ENV_RUNAI_LIMIT = "RUNAI_GPU_MEMORY_LIMIT";
    public static final String ENV_VISIBLE_DEVICES = "NVIDIA_VISIBLE_DEVICES";
    public static final String FRACTION = "gpu-fraction";
    public static final String FRACTION_LIMIT = "gpu-fraction-limit";
    public static final String MEMORY = "gpu-memory";
    public static final String MEMORY_LIMIT = "gpu-memory-limit";
    public static final String CONTAINER_NAME = "gpu-fraction-container-name";
    public static final String CONTAINER_TYPE = "gpu-fraction-container-type";
    private static final long MIB = 1L << 20;

    /** The container's budget, or empty when no convention gives it one (then it is not managed). */
    public Optional<MemoryBudget> budgetFor(PodInfo pod, ContainerInfo container) {
        Map<String, String> env = container.env();
        String where = pod.qualifiedName() + "[" + container.name() + "]";
        if (env.containsKey(ENV_REQUEST)) {
            MemoryAmount request = MemoryQuantities.bytes(ENV_REQUEST, env.get(ENV_REQUEST));
            MemoryAmount limit = envLimit(env).orElse(request);
            return Optional.of(new MemoryBudget(request, limit, "env " + ENV_REQUEST + " of " + where));
        }
        Optional<MemoryBudget> kai = kaiBudget(pod, container, where);
        if (kai.isPresent()) {
            return kai;
        }
        return isGpuContainer(pod, container) ? podAnnotationBudget(pod, env, where) : Optional.empty();
    }

    /** GPU UUIDs from {@code NVIDIA_VISIBLE_DEVICES}; indices, {@code all} and {@code none} name none. */
    public Set<String> boundGpus(ContainerInfo container) {
        String devices = container.env().getOrDefault(ENV_VISIBLE_DEVICES, "");
        return Arrays.stream(devices.split(","))
                .map(String::trim)
                .filter(d -> d.startsWith("GPU-") || d.startsWith("MIG-"))
                .collect(Collectors.toUnmodifiableSet());
    }

    private Optional<MemoryAmount> envLimit(Map<String, String> env) {
        if (env.containsKey(ENV_LIMIT)) {
            return Optional.of(MemoryQuantities.bytes(ENV_LIMIT, env.get(ENV_LIMIT)));
        }
        if (env.containsKey(ENV_RUNAI_LIMIT)) {
            return Optional.of(MemoryQuantities.quantity(ENV_RUNAI_LIMIT, env.get(ENV_RUNAI_LIMIT), 1, true));
        }
        return Optional.empty();
    }

    private Optional<MemoryBudget> kaiBudget(PodInfo pod, ContainerInfo container, String where) {
        String prefix = "nvidia.com/container." + container.name() + ".gpu-memory.";
        String requestText = pod.annotations().get(prefix + "request");
        String limitText = pod.annotations().get(prefix + "limit");
        if (requestText == null && limitText == null) {
            return Optional.empty();
        }
        MemoryAmount request =
                requestText == null ? null : MemoryQuantities.quantity(prefix + "request", requestText, MIB, false);
        MemoryAmount limit =
                limitText == null ? request : MemoryQuantities.quantity(prefix + "limit", limitText, MIB, false);
        return Optional.of(
                new MemoryBudget(request == null ? limit : request, limit, "annotations " + prefix + "* of " + where));
    }

    private Optional<MemoryBudget> podAnnotationBudget(PodInfo pod, Map<String, String> env, String where) {
        Map<String, String> annotations = pod.annotations();
        MemoryAmount request = exactlyOne(annotations, FRACTION, MEMORY, where);
        if (request == null) {
            return Optional.empty();
        }
        MemoryAmount limit = exactlyOne(annotations, FRACTION_LIMIT, MEMORY_LIMIT, where);
        if (limit == null) {
            limit = envLimit(env).orElse(request);
        }
        return Optional.of(new MemoryBudget(request, limit, "annotations " + FRACTION + "/" + MEMORY + " of " + where));
    }

    /** The amount under the fraction key or the MiB key; both at once is an error, neither is null. */
    private MemoryAmount exactlyOne(Map<String, String> annotations, String fractionKey, String mibKey, String where) {
        String fraction = annotations.get(fractionKey);
        String mib = annotations.get(mibKey);
        if (fraction != null && mib != null) {
            throw new InvalidBudgetException(
                    where + " sets both " + fractionKey + " and " + mibKey + "; keep one of them");
        }
        if (fraction != null) {
            return MemoryQuantities.fraction(fractionKey, fraction);
        }
        return mib == null ? null : MemoryQuantities.mebibytes(mibKey, mib);
    }

    private boolean isGpuContainer(PodInfo pod, ContainerInfo container) {
        String named = pod.annotations().get(CONTAINER_NAME);
        if (named == null) {
            return pod.firstContainer()
                    .map(first -> first.name().equals(container.name()) && !container.init())
                    .orElse(false);
        }
        boolean init = "InitContainer".equalsIgnoreCase(pod.annotations().getOrDefault(CONTAINER_TYPE, ""));
        return container.name().equals(named) && container.init() == init;
    }
}
