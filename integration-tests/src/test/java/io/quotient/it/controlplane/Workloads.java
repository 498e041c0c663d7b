package io.quotient.it.controlplane;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobSpec;
import io.kubernetes.client.openapi.models.V1NodeAffinity;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.quotient.it.harness.Conventions;
import java.util.List;
import java.util.Map;

/** Jobs and pods as the tests submit them: one container asking for whole GPUs, optionally pinned to a node. */
final class Workloads {

    static final String IMAGE = "registry.k8s.io/pause:3.9";

    private Workloads() {}

    static V1PodSpec gpuPodSpec(int gpus, String requiredNode) {
        Map<String, Quantity> limits = Map.of(Conventions.GPU_RESOURCE, new Quantity(Integer.toString(gpus)));
        V1PodSpec spec = new V1PodSpec()
                // client-java 24 serialises an empty "overhead": {} that Kubernetes < 1.24 rejects for pods
                // ("Pod Overhead set without corresponding RuntimeClass defined Overhead"): send none.
                .overhead(null)
                .restartPolicy("Never")
                .containers(List.of(new V1Container()
                        .name("main")
                        .image(IMAGE)
                        .resources(new V1ResourceRequirements().limits(limits).requests(limits))));
        return requiredNode == null ? spec : spec.affinity(requiredNodeAffinity(requiredNode));
    }

    static V1Pod gpuPod(String name, int gpus, String requiredNode) {
        return new V1Pod().metadata(new V1ObjectMeta().name(name)).spec(gpuPodSpec(gpus, requiredNode));
    }

    static V1Job gpuJob(String name, int gpus, String requiredNode) {
        return new V1Job()
                .metadata(new V1ObjectMeta().name(name))
                .spec(new V1JobSpec()
                        .backoffLimit(0)
                        .template(new V1PodTemplateSpec()
                                .metadata(new V1ObjectMeta().labels(Map.of("app", name)))
                                .spec(gpuPodSpec(gpus, requiredNode))));
    }

    /** requiredDuringSchedulingIgnoredDuringExecution on kubernetes.io/hostname, as Quotient's deployer injects. */
    static V1Affinity requiredNodeAffinity(String node) {
        return new V1Affinity()
                .nodeAffinity(new V1NodeAffinity()
                        .requiredDuringSchedulingIgnoredDuringExecution(new V1NodeSelector()
                                .nodeSelectorTerms(List.of(new V1NodeSelectorTerm()
                                        .matchExpressions(List.of(new V1NodeSelectorRequirement()
                                                .key(Conventions.HOSTNAME_LABEL)
                                                .operator("In")
                                                .values(List.of(node))))))));
    }
}
