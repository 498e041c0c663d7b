package io.quotient.enforcer.k8s;

import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerStatus;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.quotient.enforcer.core.ContainerInfo;
import io.quotient.enforcer.core.PodInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Converts a {@link V1Pod} into the core's {@link PodInfo}; container IDs come from the statuses. */
public final class PodInfoMapper {

    private PodInfoMapper() {}

    public static PodInfo toPodInfo(V1Pod pod) {
        V1ObjectMeta meta = Objects.requireNonNull(pod.getMetadata(), "pod without metadata");
        V1PodStatus status = pod.getStatus();
        List<ContainerInfo> containers = new ArrayList<>();
        if (pod.getSpec() != null) {
            add(
                    containers,
                    pod.getSpec().getInitContainers(),
                    status == null ? null : status.getInitContainerStatuses(),
                    true);
            add(
                    containers,
                    pod.getSpec().getContainers(),
                    status == null ? null : status.getContainerStatuses(),
                    false);
        }
        return new PodInfo(
                meta.getUid(),
                meta.getNamespace(),
                meta.getName(),
                orEmpty(meta.getLabels()),
                orEmpty(meta.getAnnotations()),
                containers);
    }

    private static void add(
            List<ContainerInfo> out, List<V1Container> containers, List<V1ContainerStatus> statuses, boolean init) {
        if (containers == null) {
            return;
        }
        Map<String, String> ids = new HashMap<>();
        if (statuses != null) {
            for (V1ContainerStatus status : statuses) {
                if (status.getContainerID() != null) {
                    ids.put(status.getName(), withoutScheme(status.getContainerID()));
                }
            }
        }
        for (V1Container container : containers) {
            out.add(new ContainerInfo(
                    container.getName(), ids.getOrDefault(container.getName(), ""), literalEnv(container), init));
        }
    }

    /** Only literal values: a budget from a ConfigMap or a field reference is not something to kill on. */
    private static Map<String, String> literalEnv(V1Container container) {
        Map<String, String> env = new HashMap<>();
        if (container.getEnv() != null) {
            for (V1EnvVar variable : container.getEnv()) {
                if (variable.getValue() != null) {
                    env.put(variable.getName(), variable.getValue());
                }
            }
        }
        return env;
    }

    /** {@code containerd://<id>}, {@code cri-o://<id>}, {@code docker://<id>} → {@code <id>}. */
    static String withoutScheme(String containerId) {
        int scheme = containerId.indexOf("://");
        return scheme < 0 ? containerId : containerId.substring(scheme + 3);
    }

    private static Map<String, String> orEmpty(Map<String, String> map) {
        return map == null ? Map.of() : map;
    }
}
