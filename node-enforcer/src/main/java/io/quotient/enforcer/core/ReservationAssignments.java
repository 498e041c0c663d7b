package io.quotient.enforcer.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Which GPU each reservation pod got: joins the kubelet's device allocations with this node's
 * reservation pods (by namespace/name: the pod-resources API carries no UID) and lists the pods whose
 * {@code quotient.io/gpu-uuid} annotation is missing or wrong.
 */
public final class ReservationAssignments {

    public static final String ROLE_LABEL = "quotient.io/role";
    public static final String ROLE = "gpu-reservation";
    public static final String UUID_ANNOTATION = "quotient.io/gpu-uuid";
    public static final String GPU_RESOURCE = "nvidia.com/gpu";

    /** Annotate this pod with this GPU UUID. */
    public record Assignment(String namespace, String pod, String gpuUuid) {}

    private ReservationAssignments() {}

    public static List<Assignment> pending(Collection<DeviceAllocation> allocations, Collection<PodInfo> pods) {
        Map<String, PodInfo> reservations = pods.stream()
                .filter(p -> ROLE.equals(p.labels().get(ROLE_LABEL)))
                .collect(Collectors.toMap(PodInfo::qualifiedName, Function.identity(), (a, b) -> a));
        List<Assignment> pending = new ArrayList<>();
        for (DeviceAllocation allocation : allocations) {
            PodInfo pod = reservations.get(allocation.namespace() + "/" + allocation.pod());
            if (pod == null
                    || !GPU_RESOURCE.equals(allocation.resourceName())
                    || allocation.deviceIds().isEmpty()) {
                continue;
            }
            String uuid = physicalUuid(allocation.deviceIds().get(0));
            if (!uuid.equals(pod.annotations().get(UUID_ANNOTATION))) {
                pending.add(new Assignment(pod.namespace(), pod.name(), uuid));
            }
        }
        return pending;
    }

    /** Time-sliced replicas are advertised as {@code UUID::N}; the GPU is the part before "::". */
    static String physicalUuid(String deviceId) {
        int replica = deviceId.indexOf("::");
        return replica < 0 ? deviceId : deviceId.substring(0, replica);
    }
}
