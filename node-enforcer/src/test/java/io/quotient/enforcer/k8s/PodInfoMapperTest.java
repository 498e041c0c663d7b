package io.quotient.enforcer.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerStatus;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1EnvVarSource;
import io.kubernetes.client.openapi.models.V1ObjectFieldSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.quotient.enforcer.core.ContainerInfo;
import io.quotient.enforcer.core.PodInfo;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

class PodInfoMapperTest {

    @Test
    void containerNamesAndIdsComeFromTheStatusesWhateverTheRuntime() {
        V1Pod pod = new V1Pod()
                .metadata(new V1ObjectMeta()
                        .uid("uid-1")
                        .namespace("team-a")
                        .name("train-0")
                        .labels(Map.of("quotient.io/team", "a"))
                        .annotations(Map.of("gpu-fraction", "0.5")))
                .spec(new V1PodSpec()
                        .initContainers(List.of(new V1Container().name("setup")))
                        .containers(List.of(
                                new V1Container()
                                        .name("main")
                                        .env(List.of(
                                                new V1EnvVar()
                                                        .name("GPU_MEMORY_LIMIT")
                                                        .value("4294967296"),
                                                new V1EnvVar()
                                                        .name("NODE")
                                                        .valueFrom(new V1EnvVarSource()
                                                                .fieldRef(new V1ObjectFieldSelector()
                                                                        .fieldPath("spec.nodeName"))))),
                                new V1Container().name("sidecar"),
                                new V1Container().name("starting"))))
                .status(new V1PodStatus()
                        .initContainerStatuses(
                                List.of(new V1ContainerStatus().name("setup").containerID("cri-o://" + "1".repeat(64))))
                        .containerStatuses(List.of(
                                new V1ContainerStatus().name("main").containerID("containerd://" + "a".repeat(64)),
                                new V1ContainerStatus().name("sidecar").containerID("docker://" + "b".repeat(64)),
                                new V1ContainerStatus().name("starting"))));

        PodInfo info = PodInfoMapper.toPodInfo(pod);

        assertThat(info.uid()).isEqualTo("uid-1");
        assertThat(info.qualifiedName()).isEqualTo("team-a/train-0");
        assertThat(info.annotations()).containsEntry("gpu-fraction", "0.5");
        assertThat(info.containers())
                .extracting(ContainerInfo::name, ContainerInfo::containerId, ContainerInfo::init)
                .containsExactly(
                        Tuple.tuple("setup", "1".repeat(64), true),
                        Tuple.tuple("main", "a".repeat(64), false),
                        Tuple.tuple("sidecar", "b".repeat(64), false),
                        Tuple.tuple("starting", "", false));
        assertThat(info.containerById("a".repeat(64)).orElseThrow().env())
                .as("only literal values count as budgets")
                .containsExactly(Map.entry("GPU_MEMORY_LIMIT", "4294967296"));
    }

    @Test
    void aPodWithoutSpecOrStatusHasNoContainersYet() {
        PodInfo info = PodInfoMapper.toPodInfo(
                new V1Pod().metadata(new V1ObjectMeta().uid("u").namespace("n").name("p")));

        assertThat(info.containers()).isEmpty();
        assertThat(info.labels()).isEmpty();
    }
}
