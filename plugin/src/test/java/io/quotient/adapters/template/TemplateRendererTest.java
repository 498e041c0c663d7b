package io.quotient.adapters.template;

import static io.quotient.adapters.template.RenderFixtures.*;
import static io.quotient.adapters.template.TreePaths.at;
import static io.quotient.adapters.template.TreePaths.env;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.model.GpuRequest;
import io.quotient.deploy.port.GpuBinding;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TemplateRendererTest {

    private final TemplateRenderer renderer = builtInRenderer();

    @Test
    void batchJobGetsNameNamespaceLabelsAndTheRequestsContainerSettings() {
        RenderedWorkload job = renderer.render(whole("job", 3));

        assertThat(job.kind()).isEqualTo(WorkloadKind.JOB);
        assertThat(job.name()).isEqualTo("team-a.train-1");
        assertThat(job.namespace()).isEqualTo(NAMESPACE);
        assertThat((String) at(job.body(), "metadata.name")).isEqualTo("team-a.train-1");
        assertThat((String) at(job.body(), "metadata.namespace")).isEqualTo(NAMESPACE);
        for (String labels : List.of("metadata.labels", "spec.template.metadata.labels")) {
            Map<String, Object> l = at(job.body(), labels);
            assertThat(l)
                    .containsEntry("quotient.io/team", "team-a")
                    .containsEntry("quotient.io/job", "train-1")
                    .containsEntry("quotient.io/quota-state", "OverQuota")
                    .containsEntry("app.kubernetes.io/managed-by", "quotient")
                    .containsEntry("owner", "alice")
                    .containsEntry("app.kubernetes.io/component", "batch-job");
        }
        Map<String, Object> main = at(job.body(), "spec.template.spec.containers[0]");
        assertThat(main)
                .containsEntry("image", "registry.example/train:1.0")
                .containsEntry("command", List.of("python", "train.py"))
                .containsEntry("args", List.of("--epochs", "3"));
        assertThat(env(main, "LEARNING_RATE")).isEqualTo("0.01");
        assertThat((String) at(main, "resources.requests.cpu")).isEqualTo("4000m");
        assertThat((String) at(main, "resources.requests.memory")).isEqualTo("16384Mi");
        assertThat((Object) at(job.body(), "spec.backoffLimit")).isEqualTo(0);
    }

    @Test
    void wholeGpusBecomeNvidiaGpuRequestAndLimitWithoutFractionSettings() {
        RenderedWorkload job = renderer.render(whole("job", 3));

        Map<String, Object> main = at(job.body(), "spec.template.spec.containers[0]");
        assertThat((TreePaths.<Map<String, Object>>at(main, "resources.limits")))
                .containsEntry("nvidia.com/gpu", "3");
        assertThat((TreePaths.<Map<String, Object>>at(main, "resources.requests")))
                .containsEntry("nvidia.com/gpu", "3");
        assertThat(env(main, "NVIDIA_VISIBLE_DEVICES")).isNull();
        Map<String, Object> annotations = at(job.body(), "spec.template.metadata.annotations");
        assertThat(annotations == null ? Map.of() : annotations).doesNotContainKeys("gpu-fraction", "gpu-memory");
    }

    @Test
    void everyPodIsPinnedToThePlannedNodeByRequiredHostnameAffinity() {
        RenderedWorkload job = renderer.render(whole("job", 1));

        Map<String, Object> expression = at(
                job.body(),
                "spec.template.spec.affinity.nodeAffinity"
                        + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]");
        assertThat(expression)
                .containsEntry("key", "kubernetes.io/hostname")
                .containsEntry("operator", "In")
                .containsEntry("values", List.of(NODE));
    }

    @Test
    void fractionGetsAnnotationsVisibleDevicesAndMemoryBytesFromTheNodesGpuMemory() {
        RenderedWorkload job = renderer.render(fraction("job", 300, 500, "GPU-1111"));

        Map<String, Object> annotations = at(job.body(), "spec.template.metadata.annotations");
        assertThat(annotations)
                .containsEntry("gpu-fraction", "0.3")
                .containsEntry("gpu-fraction-limit", "0.5")
                .containsEntry("gpu-fraction-num-devices", "1")
                .doesNotContainKey("gpu-memory");
        Map<String, Object> main = at(job.body(), "spec.template.spec.containers[0]");
        long gpuBytes = GPU_MEMORY_MIB * 1024 * 1024;
        assertThat(env(main, "NVIDIA_VISIBLE_DEVICES")).isEqualTo("GPU-1111");
        assertThat(env(main, "GPU_MEMORY_REQUEST")).isEqualTo(Long.toString(gpuBytes * 3 / 10));
        assertThat(env(main, "GPU_MEMORY_LIMIT")).isEqualTo(Long.toString(gpuBytes / 2));
        assertThat(env(main, "RUNAI_GPU_MEMORY_LIMIT")).isEqualTo(Long.toString(gpuBytes / 2));
        Map<String, Object> requests = at(main, "resources.requests");
        assertThat(requests).doesNotContainKey("nvidia.com/gpu").containsKey("cpu");
        assertThat((Object) at(main, "resources.limits")).isNull();
    }

    @Test
    void memoryRequestGetsMibAnnotationsAndExactByteEnv() {
        RenderRequest request = RenderFixtures.request(
                submission("job"), new GpuRequest.Memory(2000, 4000, 1), List.of(new GpuBinding(0, "GPU-2222", 0.025)));

        RenderedWorkload job = renderer.render(request);

        Map<String, Object> annotations = at(job.body(), "spec.template.metadata.annotations");
        assertThat(annotations)
                .containsEntry("gpu-memory", "2000")
                .containsEntry("gpu-memory-limit", "4000")
                .doesNotContainKey("gpu-fraction");
        Map<String, Object> main = at(job.body(), "spec.template.spec.containers[0]");
        assertThat(env(main, "GPU_MEMORY_REQUEST")).isEqualTo(Long.toString(2000L * 1024 * 1024));
        assertThat(env(main, "GPU_MEMORY_LIMIT")).isEqualTo(Long.toString(4000L * 1024 * 1024));
    }

    @Test
    void multiGpuFractionListsEveryReservedGpu() {
        RenderedWorkload job = renderer.render(fraction("job", 250, 250, "GPU-aaaa", "GPU-bbbb"));

        Map<String, Object> main = at(job.body(), "spec.template.spec.containers[0]");
        assertThat(env(main, "NVIDIA_VISIBLE_DEVICES")).isEqualTo("GPU-aaaa,GPU-bbbb");
        assertThat((String) at(job.body(), "spec.template.metadata.annotations.gpu-fraction-num-devices"))
                .isEqualTo("2");
    }

    @Test
    void fractionWithoutReservedGpuUuidIsRefused() {
        RenderRequest request = RenderFixtures.request(
                submission("job"), new GpuRequest.Fraction(300, 300, 1), List.of(new GpuBinding(0, null, 0.3)));

        assertThatThrownBy(() -> renderer.render(request))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no UUID yet");
    }

    @Test
    void fractionOnANodeWithoutGpuMemoryFactsIsRefused() {
        RenderRequest withMemory = fraction("job", 300, 300, "GPU-1");
        RenderRequest request = new RenderRequest(
                withMemory.namespace(),
                withMemory.objectName(),
                withMemory.record(),
                withMemory.placement(),
                withMemory.gpus(),
                0);

        assertThatThrownBy(() -> renderer.render(request)).hasMessageContaining("nvidia.com/gpu.memory");
    }

    @Test
    void unknownTemplateIsRefusedNamingTheKnownOnes() {
        RenderRequest request = RenderFixtures.request(
                submission("does-not-exist"), new GpuRequest.WholeGpus(1), List.of(new GpuBinding(0, null, 1)));

        assertThatThrownBy(() -> renderer.render(request))
                .hasMessageContaining("does-not-exist")
                .hasMessageContaining("job")
                .hasMessageContaining("notebook");
    }

    @Test
    void hashIsStableForEqualInputsAndChangesWithThePlacement() {
        RenderedWorkload first = renderer.render(whole("job", 2));
        RenderedWorkload again = renderer.render(whole("job", 2));
        RenderedWorkload other = renderer.render(whole("job", 3));

        assertThat(again.hash()).isEqualTo(first.hash());
        assertThat(other.hash()).isNotEqualTo(first.hash());
        assertThat((TreePaths.<Map<String, Object>>at(first.body(), "metadata.annotations")))
                .containsEntry(TemplateRenderer.HASH_ANNOTATION, first.hash());
    }

    @Test
    void renderingLeavesTheLoadedTemplateUntouched() {
        renderer.render(whole("job", 2));

        RenderedWorkload cpuOnly =
                renderer.render(RenderFixtures.request(submission("job"), new GpuRequest.None(), List.of()));

        Map<String, Object> main = at(cpuOnly.body(), "spec.template.spec.containers[0]");
        assertThat((TreePaths.<Map<String, Object>>at(main, "resources.requests")))
                .doesNotContainKey("nvidia.com/gpu");
        assertThat((Object) at(main, "resources.limits")).isNull();
        List<?> terms = at(
                cpuOnly.body(),
                "spec.template.spec.affinity.nodeAffinity"
                        + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms");
        assertThat(terms).hasSize(1);
    }

    @Test
    void notebookPodIsItsOwnPodTemplate() {
        RenderedWorkload pod = renderer.render(fraction("notebook", 500, 1000, "GPU-nb"));

        assertThat(pod.kind()).isEqualTo(WorkloadKind.POD);
        assertThat((String) at(pod.body(), "metadata.name")).isEqualTo("team-a.train-1");
        assertThat((TreePaths.<Map<String, Object>>at(pod.body(), "metadata.annotations")))
                .containsEntry("gpu-fraction", "0.5")
                .containsEntry("gpu-fraction-limit", "1");
        Map<String, Object> main = at(pod.body(), "spec.containers[0]");
        assertThat(main).containsEntry("name", "notebook");
        assertThat(env(main, "NVIDIA_VISIBLE_DEVICES")).isEqualTo("GPU-nb");
        assertThat((Object) at(pod.body(), "spec.affinity.nodeAffinity")).isNotNull();
        assertThat((Object) at(main, "ports[0].containerPort")).isEqualTo(8888);
    }

    @Test
    void quotientsOwnLabelsWinOverUserLabelsOfTheSameKey() {
        RenderRequest request = RenderFixtures.request(
                submission(
                        "job",
                        "img:1",
                        List.of(),
                        Map.of("quotient.io/team", "someone-else", "quotient.io/quota-state", "InQuota"),
                        Map.of()),
                new GpuRequest.WholeGpus(1),
                List.of(new GpuBinding(0, null, 1)));

        RenderedWorkload job = renderer.render(request);

        assertThat(TreePaths.<Map<String, Object>>at(job.body(), "spec.template.metadata.labels"))
                .containsEntry("quotient.io/team", "team-a")
                .containsEntry("quotient.io/quota-state", "OverQuota");
    }

    @Test
    void fractionGoesToTheContainerTheTemplateNamesEvenAnInitContainer(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("loader.yaml"), """
                apiVersion: batch/v1
                kind: Job
                spec:
                  template:
                    metadata:
                      annotations:
                        gpu-fraction-container-name: loader
                        gpu-fraction-container-type: InitContainer
                    spec:
                      restartPolicy: Never
                      initContainers:
                        - name: loader
                          image: loader:1
                      containers:
                        - name: main
                          image: main:1
                """);
        TemplateRenderer custom = new TemplateRenderer(TemplateCatalog.load(Optional.of(dir)));

        RenderedWorkload job = custom.render(fraction("loader", 200, 200, "GPU-init"));

        Map<String, Object> loader = at(job.body(), "spec.template.spec.initContainers[0]");
        Map<String, Object> main = at(job.body(), "spec.template.spec.containers[0]");
        assertThat(env(loader, "NVIDIA_VISIBLE_DEVICES")).isEqualTo("GPU-init");
        assertThat(env(main, "NVIDIA_VISIBLE_DEVICES")).isNull();
        assertThat(main).containsEntry("image", "registry.example/train:1.0");
        assertThat(env(main, "LEARNING_RATE")).isEqualTo("0.01");
    }

    @Test
    void templateRequiredAffinityTermsKeepTheirConstraintsAndGainTheNode(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("zoned.yaml"), """
                apiVersion: v1
                kind: Pod
                spec:
                  affinity:
                    nodeAffinity:
                      requiredDuringSchedulingIgnoredDuringExecution:
                        nodeSelectorTerms:
                          - matchExpressions: [{key: zone, operator: In, values: [a]}]
                          - matchExpressions: [{key: zone, operator: In, values: [b]}]
                  containers:
                    - name: main
                      image: main:1
                """);
        TemplateRenderer custom = new TemplateRenderer(TemplateCatalog.load(Optional.of(dir)));

        RenderedWorkload pod = custom.render(whole("zoned", 1));

        List<Map<String, Object>> terms = at(
                pod.body(),
                "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms");
        assertThat(terms)
                .hasSize(2)
                .allSatisfy(term -> assertThat((List<?>) term.get("matchExpressions"))
                        .hasSize(2)
                        .last()
                        .isEqualTo(Map.of("key", "kubernetes.io/hostname", "operator", "In", "values", List.of(NODE))));
    }
}
