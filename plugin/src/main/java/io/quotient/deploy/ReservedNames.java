package io.quotient.deploy;

import io.quotient.core.request.RequestException;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Names a request may not set, because they would let a job escape its quota or pose as another job: the env that
 * binds a container to GPUs and tells the node enforcer its limit, Quotient's own labels and annotations, and the
 * GPU request annotations (Run:ai's and KAI's conventions) that the enforcer and other schedulers read. Only the
 * request's {@code gpu} part asks for GPUs; the renderer sets these names itself from the decision.
 */
final class ReservedNames {

    private static final Set<String> ENV =
            Set.of("NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES", "CUDA_VISIBLE_DEVICES");
    private static final List<String> ENV_PREFIXES = List.of("GPU_MEMORY_", "RUNAI_");
    private static final String QUOTIENT_PREFIX = "quotient.io/";
    /** gpu-fraction, gpu-fraction-limit, gpu-memory, nvidia.com/container.x.gpu-memory.request, ... */
    private static final List<String> GPU_ANNOTATION_WORDS = List.of("gpu-fraction", "gpu-memory");
    /**
     * The label that marks a workload as Quotient's (its informers select on it): the renderer sets it, so a value
     * given was overwritten in silence; refused like Quotient's own labels instead. Its prefix is a DNS name (read in
     * any case), its name is not (app.kubernetes.io/Managed-By is another label, kept as given).
     */
    private static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";

    private ReservedNames() {}

    static void checkEnv(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        if (ENV.contains(upper) || ENV_PREFIXES.stream().anyMatch(upper::startsWith)) {
            throw new RequestException(
                    "env." + name,
                    "is reserved: Quotient sets it from the GPUs the job was given"
                            + " (NVIDIA_VISIBLE_DEVICES, NVIDIA_DRIVER_CAPABILITIES, CUDA_VISIBLE_DEVICES, GPU_MEMORY_*, RUNAI_*);"
                            + " ask for GPUs with the request's gpu field instead");
        }
    }

    /** @param kind {@code labels} or {@code annotations} */
    static void checkMetadataKey(String kind, String key) {
        String field = kind + "." + key;
        // prefixes are DNS names: QUOTIENT.IO/team is quotient.io/team to anyone who reads it back
        String lower = key.toLowerCase(Locale.ROOT);
        int slash = lower.indexOf('/');
        String prefix = slash < 0 ? "" : lower.substring(0, slash + 1);
        if (prefix.equals(QUOTIENT_PREFIX) || prefix.endsWith("." + QUOTIENT_PREFIX)) {
            throw new RequestException(field, kind + " under " + QUOTIENT_PREFIX + " are set by Quotient");
        }
        int keySlash = key.indexOf('/');
        if (kind.equals("labels")
                && (key.substring(0, keySlash + 1).toLowerCase(Locale.ROOT) + key.substring(keySlash + 1))
                        .equals(MANAGED_BY_LABEL)) {
            throw new RequestException(
                    field,
                    "is set by Quotient to 'quotient' on every workload it creates (its informers select on"
                            + " it); leave it out, or put the value in a label of your own");
        }
        String name = key.substring(key.indexOf('/') + 1).toLowerCase(Locale.ROOT);
        if (GPU_ANNOTATION_WORDS.stream().anyMatch(name::contains)) {
            throw new RequestException(
                    field,
                    "is a GPU request " + kind.substring(0, kind.length() - 1) + " name"
                            + " (gpu-fraction*, gpu-memory*), which Quotient sets from the decision; ask for GPUs with the"
                            + " request's gpu field instead");
        }
    }
}
