package io.quotient.adapters.k8s;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobCondition;
import io.kubernetes.client.openapi.models.V1JobStatus;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeCondition;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.quotient.adapters.k8s.observation.NodeFacts;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

/** Kubernetes objects as the informers would hold them, for the adapter tests. */
public final class K8sFixtures {

    private K8sFixtures() {}

    public static V1Node gpuNode(String name, int gpus, String ready) {
        return new V1Node()
                .metadata(new V1ObjectMeta()
                        .name(name)
                        .labels(Map.of(
                                NodeFacts.GPU_MEMORY_LABEL,
                                "81920",
                                NodeFacts.GPU_PRODUCT_LABEL,
                                "NVIDIA-H100-80GB-HBM3")))
                .status(new V1NodeStatus()
                        .allocatable(Map.of(
                                "cpu",
                                new Quantity("64"),
                                "memory",
                                new Quantity("256Gi"),
                                NodeFacts.GPU_RESOURCE,
                                new Quantity(Integer.toString(gpus))))
                        .conditions(List.of(new V1NodeCondition().type("Ready").status(ready))));
    }

    public static V1Pod jobPod(String team, String job, String phase) {
        return new V1Pod()
                .metadata(new V1ObjectMeta().name(team + "." + job + "-x").labels(labels(team, job)))
                .status(new V1PodStatus().phase(phase));
    }

    public static V1Pod terminating(V1Pod pod) {
        pod.getMetadata().deletionTimestamp(OffsetDateTime.now());
        return pod;
    }

    public static V1Job job(String team, String job, String conditionType) {
        V1Job j = new V1Job().metadata(new V1ObjectMeta().name(team + "." + job).labels(labels(team, job)));
        if (conditionType != null) {
            j.status(new V1JobStatus()
                    .conditions(List.of(new V1JobCondition().type(conditionType).status("True"))));
        }
        return j;
    }

    private static Map<String, String> labels(String team, String job) {
        return Map.of("quotient.io/team", team, "quotient.io/job", job, "app.kubernetes.io/managed-by", "quotient");
    }
}
