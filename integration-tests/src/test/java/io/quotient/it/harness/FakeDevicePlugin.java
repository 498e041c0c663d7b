package io.quotient.it.harness;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Hands out the fake GPUs of a node to the pods that request {@code nvidia.com/gpu}, as the NVIDIA device
 * plugin does: each GPU to one live pod at a time. A reservation pod's GPU is recorded in its
 * {@code quotient.io/gpu-uuid} annotation (the node enforcer's job on a real node); every pod's GPUs are
 * also remembered here, so that no two pods share one even before the kubelet's cache shows an annotation.
 */
final class FakeDevicePlugin {

    /** Pod UID to the GPUs given to the pod. */
    private final Map<String, List<String>> given = new HashMap<>();

    /** Forgets the GPUs of pods that are gone or finished. */
    void keepOnly(Set<String> livePodUids) {
        given.keySet().retainAll(livePodUids);
    }

    /**
     * The GPUs for {@code pod}, chosen among {@code nodeGpus} not held by {@code livePodsOnNode}; empty when
     * the pod asks for none, or when too few are free (a real kubelet would refuse to admit it).
     */
    Optional<List<String>> allocate(V1Pod pod, List<String> nodeGpus, List<V1Pod> livePodsOnNode) {
        int wanted = requestedGpus(pod);
        if (wanted == 0) {
            return Optional.empty();
        }
        String uid = pod.getMetadata().getUid();
        if (given.containsKey(uid)) {
            return Optional.of(given.get(uid));
        }
        Set<String> taken = new HashSet<>();
        for (V1Pod other : livePodsOnNode) {
            reservedUuid(other).ifPresent(taken::add);
            taken.addAll(given.getOrDefault(other.getMetadata().getUid(), List.of()));
        }
        LinkedHashSet<String> free = new LinkedHashSet<>(preferredFirst(pod, nodeGpus));
        free.removeAll(taken);
        if (free.size() < wanted) {
            return Optional.empty();
        }
        List<String> chosen = List.copyOf(new ArrayList<>(free).subList(0, wanted));
        given.put(uid, chosen);
        return Optional.of(chosen);
    }

    static boolean isReservation(V1Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        return labels != null && Conventions.RESERVATION_ROLE.equals(labels.get(Conventions.ROLE_LABEL));
    }

    static Optional<String> reservedUuid(V1Pod pod) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        return isReservation(pod) && annotations != null
                ? Optional.ofNullable(annotations.get(Conventions.GPU_UUID_ANNOTATION))
                : Optional.empty();
    }

    /** A reservation pod names the GPU index it wants ({@code quotient.io/gpu-index}); offer that one first. */
    private static List<String> preferredFirst(V1Pod pod, List<String> nodeGpus) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        String index = labels == null ? null : labels.get(Conventions.GPU_INDEX_LABEL);
        List<String> ordered = new ArrayList<>(nodeGpus);
        if (index != null && index.matches("\\d+") && Integer.parseInt(index) < nodeGpus.size()) {
            ordered.add(0, ordered.remove(Integer.parseInt(index)));
        }
        return ordered;
    }

    /** The pod's nvidia.com/gpu limit (extended resources have request == limit), summed over its containers. */
    static int requestedGpus(V1Pod pod) {
        int total = 0;
        for (V1Container container : pod.getSpec().getContainers()) {
            if (container.getResources() == null) {
                continue;
            }
            Quantity quantity = Optional.ofNullable(container.getResources().getLimits())
                    .map(limits -> limits.get(Conventions.GPU_RESOURCE))
                    .or(() -> Optional.ofNullable(container.getResources().getRequests())
                            .map(requests -> requests.get(Conventions.GPU_RESOURCE)))
                    .orElse(null);
            total += quantity == null ? 0 : quantity.getNumber().intValue();
        }
        return total;
    }
}
