package io.quotient.adapters.k8s.workloads;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1NodeAffinity;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubernetes.client.openapi.models.V1Toleration;
import io.quotient.adapters.k8s.KubernetesNames;
import io.quotient.adapters.k8s.observation.NodeFacts;
import io.quotient.adapters.template.TemplateRenderer;
import io.quotient.deploy.port.GpuSlot;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reservation pods (docs/design.md, "Conventions"): a pause container holding one whole GPU
 * ({@code nvidia.com/gpu: 1}) on one node, so the kubelet's device plugin gives that GPU to no one else while fractional jobs share it. The node
 * enforcer (the fake kubelet in tests) annotates the pod with the GPU's UUID, which the fractions then bind to.
 */
public final class ReservationPods {

    static final String ROLE_LABEL = "quotient.io/role";
    static final String ROLE = "gpu-reservation";
    static final String NODE_LABEL = "quotient.io/node";
    static final String GPU_INDEX_LABEL = "quotient.io/gpu-index";
    static final String UUID_ANNOTATION = "quotient.io/gpu-uuid";
    static final String PAUSE_IMAGE = "registry.k8s.io/pause:3.9";
    /** Label selector of every reservation pod. */
    static final String SELECTOR = ROLE_LABEL + "=" + ROLE;

    private ReservationPods() {}

    static V1Pod build(GpuSlot slot, String namespace) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(ROLE_LABEL, ROLE);
        labels.put(NODE_LABEL, KubernetesNames.labelValue(slot.node()));
        labels.put(GPU_INDEX_LABEL, Integer.toString(slot.gpuIndex()));
        labels.put(TemplateRenderer.MANAGED_BY_LABEL, TemplateRenderer.MANAGED_BY);
        // the full node name, for node names longer than a label value may be
        Map<String, String> annotations = new LinkedHashMap<>(Map.of(NODE_LABEL, slot.node()));
        Map<String, Quantity> oneGpu = Map.of(NodeFacts.GPU_RESOURCE, new Quantity("1"));
        V1Container pause = new V1Container()
                .name("reserve")
                .image(PAUSE_IMAGE)
                .resources(new V1ResourceRequirements().requests(oneGpu).limits(oneGpu));
        V1NodeSelectorTerm onNode = new V1NodeSelectorTerm()
                .addMatchExpressionsItem(new V1NodeSelectorRequirement()
                        .key("kubernetes.io/hostname")
                        .operator("In")
                        .values(List.of(slot.node())));
        V1PodSpec spec = new V1PodSpec()
                .containers(List.of(pause))
                .restartPolicy("Always")
                .terminationGracePeriodSeconds(0L)
                .affinity(new V1Affinity()
                        .nodeAffinity(new V1NodeAffinity()
                                .requiredDuringSchedulingIgnoredDuringExecution(
                                        new V1NodeSelector().nodeSelectorTerms(List.of(onNode)))))
                // GPU nodes are often tainted for GPU pods only; the reservation is one
                .tolerations(
                        List.of(new V1Toleration().key(NodeFacts.GPU_RESOURCE).operator("Exists")));
        // client-java's model starts with an empty overhead map, which admission rejects without a RuntimeClass
        spec.setOverhead(null);
        return new V1Pod()
                .apiVersion("v1")
                .kind("Pod")
                .metadata(new V1ObjectMeta()
                        .name(KubernetesNames.ofReservation(slot))
                        .namespace(namespace)
                        .labels(labels)
                        .annotations(annotations))
                .spec(spec);
    }

    public static boolean isReservation(V1Pod pod) {
        Map<String, String> labels =
                pod.getMetadata() == null ? null : pod.getMetadata().getLabels();
        return labels != null && ROLE.equals(labels.get(ROLE_LABEL));
    }

    /** The GPU a reservation pod holds, from its labels and annotation; empty for pods that are not one. */
    public static Optional<GpuSlot> slot(V1Pod pod) {
        if (!isReservation(pod)) {
            return Optional.empty();
        }
        Map<String, String> labels = pod.getMetadata().getLabels();
        Map<String, String> annotations = pod.getMetadata().getAnnotations() == null
                ? Map.of()
                : pod.getMetadata().getAnnotations();
        String node = annotations.getOrDefault(NODE_LABEL, labels.get(NODE_LABEL));
        try {
            return node == null
                    ? Optional.empty()
                    : Optional.of(new GpuSlot(node, Integer.parseInt(labels.get(GPU_INDEX_LABEL))));
        } catch (RuntimeException e) {
            return Optional.empty(); // someone else's pod with our role label but no index: not ours to count
        }
    }

    /** The GPU UUID the node enforcer reported on the pod, or an empty string while there is none. */
    public static String uuid(V1Pod pod) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String uuid = annotations == null ? null : annotations.get(UUID_ANNOTATION);
        return uuid == null ? "" : uuid;
    }

    public static boolean terminating(V1Pod pod) {
        return pod.getMetadata().getDeletionTimestamp() != null;
    }
}
