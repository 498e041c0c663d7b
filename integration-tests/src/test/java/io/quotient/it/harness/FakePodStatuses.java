package io.quotient.it.harness;

import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerState;
import io.kubernetes.client.openapi.models.V1ContainerStateRunning;
import io.kubernetes.client.openapi.models.V1ContainerStateTerminated;
import io.kubernetes.client.openapi.models.V1ContainerStatus;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodIP;
import io.kubernetes.client.openapi.models.V1PodStatus;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The statuses a kubelet writes: a started pod, and a finished one. */
final class FakePodStatuses {

    static final String RUNNING = "Running";
    static final String SUCCEEDED = "Succeeded";
    static final String FAILED = "Failed";
    private static final String FAKE_HOST_IP = "10.1.0.1";

    private FakePodStatuses() {}

    /** Running with every container started and ready, init containers completed, an IP and container IDs. */
    static V1PodStatus running(V1Pod pod, String podIp, OffsetDateTime now) {
        V1PodStatus previous = pod.getStatus() == null ? new V1PodStatus() : pod.getStatus();
        OffsetDateTime started = previous.getStartTime() == null ? now : previous.getStartTime();
        List<V1ContainerStatus> initStatuses = containers(pod.getSpec().getInitContainers()).stream()
                .map(c -> containerStatus(
                        c,
                        new V1ContainerState()
                                .terminated(new V1ContainerStateTerminated()
                                        .exitCode(0)
                                        .reason("Completed")
                                        .startedAt(started)
                                        .finishedAt(now)
                                        .containerID(newContainerId())),
                        false))
                .toList();
        List<V1ContainerStatus> statuses = pod.getSpec().getContainers().stream()
                .map(c -> containerStatus(
                        c, new V1ContainerState().running(new V1ContainerStateRunning().startedAt(now)), true))
                .toList();
        return new V1PodStatus()
                .phase(RUNNING)
                .qosClass(previous.getQosClass())
                .hostIP(FAKE_HOST_IP)
                .podIP(podIp)
                .podIPs(List.of(new V1PodIP().ip(podIp)))
                .startTime(started)
                .conditions(conditions(previous, "True", null, now))
                .initContainerStatuses(initStatuses.isEmpty() ? null : initStatuses)
                .containerStatuses(statuses);
    }

    /** Succeeded (every container exited 0) or Failed (the containers exited with {@code exitCode}). */
    static V1PodStatus finished(V1Pod pod, boolean succeeded, int exitCode, OffsetDateTime now) {
        V1PodStatus previous = pod.getStatus() == null ? new V1PodStatus() : pod.getStatus();
        OffsetDateTime started = previous.getStartTime() == null ? now : previous.getStartTime();
        Map<String, V1ContainerStatus> before = previous.getContainerStatuses() == null
                ? Map.of()
                : previous.getContainerStatuses().stream()
                        .collect(Collectors.toMap(V1ContainerStatus::getName, Function.identity()));
        List<V1ContainerStatus> statuses = pod.getSpec().getContainers().stream()
                .map(c -> {
                    String containerId = Optional.ofNullable(before.get(c.getName()))
                            .map(V1ContainerStatus::getContainerID)
                            .orElseGet(FakePodStatuses::newContainerId);
                    return containerStatus(
                            c,
                            new V1ContainerState()
                                    .terminated(new V1ContainerStateTerminated()
                                            .exitCode(succeeded ? 0 : exitCode)
                                            .reason(succeeded ? "Completed" : "Error")
                                            .startedAt(started)
                                            .finishedAt(now)
                                            .containerID(containerId)),
                            false);
                })
                .toList();
        return new V1PodStatus()
                .phase(succeeded ? SUCCEEDED : FAILED)
                .qosClass(previous.getQosClass())
                .hostIP(previous.getHostIP())
                .podIP(previous.getPodIP())
                .podIPs(previous.getPodIPs())
                .startTime(started)
                .conditions(conditions(previous, "False", "PodCompleted", now))
                .initContainerStatuses(previous.getInitContainerStatuses())
                .containerStatuses(statuses);
    }

    private static List<V1Container> containers(List<V1Container> containers) {
        return containers == null ? List.of() : containers;
    }

    private static V1ContainerStatus containerStatus(V1Container container, V1ContainerState state, boolean ready) {
        String containerId =
                state.getTerminated() != null ? state.getTerminated().getContainerID() : newContainerId();
        return new V1ContainerStatus()
                .name(container.getName())
                .image(container.getImage())
                .imageID("fake://" + container.getImage())
                .containerID(containerId)
                .ready(ready)
                .started(ready)
                .restartCount(0)
                .state(state);
    }

    /** PodScheduled as the scheduler left it; Initialized true; Ready/ContainersReady as given. */
    private static List<V1PodCondition> conditions(
            V1PodStatus previous, String ready, String reason, OffsetDateTime now) {
        List<V1PodCondition> conditions = new ArrayList<>();
        if (previous.getConditions() != null) {
            previous.getConditions().stream()
                    .filter(c -> "PodScheduled".equals(c.getType()))
                    .forEach(conditions::add);
        }
        conditions.add(new V1PodCondition().type("Initialized").status("True").lastTransitionTime(now));
        conditions.add(new V1PodCondition()
                .type("ContainersReady")
                .status(ready)
                .reason(reason)
                .lastTransitionTime(now));
        conditions.add(
                new V1PodCondition().type("Ready").status(ready).reason(reason).lastTransitionTime(now));
        return conditions;
    }

    private static String newContainerId() {
        byte[] id = new byte[32];
        ThreadLocalRandom.current().nextBytes(id);
        return "containerd://" + HexFormat.of().formatHex(id);
    }
}
