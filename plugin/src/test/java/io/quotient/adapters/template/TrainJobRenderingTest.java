package io.quotient.adapters.template;

import static io.quotient.adapters.template.RenderFixtures.*;
import static io.quotient.adapters.template.TreePaths.at;
import static io.quotient.adapters.template.TreePaths.env;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.model.GpuRequest;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.Metadata;
import io.quotient.deploy.port.PodOptions;
import io.quotient.deploy.port.VolumeRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code trainjob} template: the request goes to {@code spec.trainer}, the placement to Quotient's runtime patch
 * on the runtime's {@code node} pods; the runtime is referenced, never copied.
 */
class TrainJobRenderingTest {

    private static final List<String> NODES = List.of("gpu-node-2", "gpu-node-5", "gpu-node-7", "gpu-node-9");
    private static final String PATCH = "spec.runtimePatches[0]";
    private static final String NODE_POD =
            PATCH + ".trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec" + ".template";

    private final TemplateRenderer renderer = builtInRenderer();

    @Test
    void aGangIsOneTrainJobOfFourNodesPinnedOnePerChosenNode() {
        RenderedWorkload job = renderer.render(gang("trainjob", NODES));

        assertThat(job.kind()).isEqualTo(WorkloadKind.TRAIN_JOB);
        assertThat(job.body())
                .containsEntry("apiVersion", "trainer.kubeflow.org/v1alpha1")
                .containsEntry("kind", "TrainJob");
        assertThat((Map<String, Object>) at(job.body(), "spec.runtimeRef"))
                .containsEntry("name", "torch-distributed")
                .containsEntry("kind", "ClusterTrainingRuntime");
        Map<String, Object> trainer = at(job.body(), "spec.trainer");
        assertThat(trainer)
                .containsEntry("numNodes", 4)
                .containsEntry("image", "registry.example/train:1.0")
                .containsEntry("command", List.of("python", "train.py"))
                .containsEntry("args", List.of("--epochs", "3"));
        assertThat(env(trainer, "LEARNING_RATE")).isEqualTo("0.01");
        assertThat((Map<String, Object>) at(trainer, "resourcesPerNode.limits")).containsEntry("nvidia.com/gpu", "8");
        assertThat((Map<String, Object>) at(trainer, "resourcesPerNode.requests"))
                .containsEntry("nvidia.com/gpu", "8")
                .containsEntry("cpu", "4000m")
                .containsEntry("memory", "16384Mi");

        assertThat((List<Object>) at(job.body(), "spec.runtimePatches")).hasSize(1);
        assertThat((String) at(job.body(), PATCH + ".manager")).isEqualTo(TrainJobRuntimePatch.MANAGER);
        assertThat((String) at(job.body(), PATCH + ".trainingRuntimeSpec.template.spec.replicatedJobs[0].name"))
                .isEqualTo("node");
        Map<String, Object> pod = at(job.body(), NODE_POD);
        assertThat((Map<String, Object>) at(pod, "metadata.labels"))
                .containsEntry("quotient.io/team", "team-a")
                .containsEntry("quotient.io/job", "train-1")
                .containsEntry("quotient.io/quota-state", "InQuota")
                .containsEntry("owner", "alice");
        assertThat((List<Object>) at(
                        pod,
                        "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
                                + ".nodeSelectorTerms[0].matchExpressions[0].values"))
                .isEqualTo(NODES);
        assertThat((Map<String, Object>) at(
                        pod,
                        "spec.affinity.podAntiAffinity"
                                + ".requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchLabels"))
                .isEqualTo(Map.of("quotient.io/team", "team-a", "quotient.io/job", "train-1"));
        // the runtime's pod spec is the runtime's: the patch carries only what a runtime patch may set
        assertThat(((Map<String, Object>) at(pod, "spec")).keySet()).containsExactly("affinity");
        assertThat((Map<String, Object>) at(job.body(), "metadata.labels")).containsEntry("quotient.io/job", "train-1");
    }

    @Test
    void aSingleNodeFractionGetsOneNodeNoAntiAffinityAndTheGpuEnvOnTheTrainer() {
        RenderedWorkload job = renderer.render(fraction("trainjob", 500, 500, "GPU-tj"));

        Map<String, Object> trainer = at(job.body(), "spec.trainer");
        assertThat(trainer).containsEntry("numNodes", 1);
        assertThat(env(trainer, "NVIDIA_VISIBLE_DEVICES")).isEqualTo("GPU-tj");
        assertThat(env(trainer, "GPU_MEMORY_LIMIT")).isEqualTo(Long.toString(40960L * 1024 * 1024));
        assertThat((Map<String, Object>) at(trainer, "resourcesPerNode.limits")).isNull();
        Map<String, Object> pod = at(job.body(), NODE_POD);
        assertThat((List<Object>) at(
                        pod,
                        "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
                                + ".nodeSelectorTerms[0].matchExpressions[0].values"))
                .containsExactly(NODE);
        assertThat((Object) at(pod, "spec.affinity.podAntiAffinity")).isNull();
        assertThat((Map<String, Object>) at(pod, "metadata.annotations")).containsEntry("gpu-fraction", "0.5");
        assertThat((Object) at(pod, "spec.containers")).isNull();
    }

    @Test
    void podOptionsGoToTheRuntimePatchAsObjects() {
        JobSubmission plain = submission("trainjob");
        PodOptions options = new PodOptions(
                "team-a",
                "trainer",
                List.of(new VolumeRequest("data", "datasets", null, null, "/data: x\n- evil", true)),
                List.of("regcred"));
        Metadata metadata = new Metadata(plain.metadata().labels(), Map.of("example.com/cost-center", "42"));
        JobSubmission withPod = new JobSubmission(
                plain.request(),
                "trainjob",
                plain.image(),
                plain.command(),
                plain.args(),
                metadata,
                plain.env(),
                options);

        RenderedWorkload job = renderer.render(request(
                withPod,
                new GpuRequest.WholeGpus(2),
                List.of(new GpuBinding(0, null, 1.0), new GpuBinding(1, null, 1.0))));

        Map<String, Object> spec = at(job.body(), NODE_POD + ".spec");
        assertThat(spec)
                .containsEntry("serviceAccountName", "trainer")
                .containsEntry("imagePullSecrets", List.of(Map.of("name", "regcred")))
                .containsEntry(
                        "volumes",
                        List.of(Map.of(
                                "name",
                                "data",
                                "persistentVolumeClaim",
                                Map.of("claimName", "datasets", "readOnly", true))));
        assertThat((Object) at(spec, "containers"))
                .isEqualTo(List.of(Map.of(
                        "name",
                        "node",
                        "volumeMounts",
                        List.of(Map.of("name", "data", "mountPath", "/data: x\n- evil", "readOnly", true)))));
        assertThat((Map<String, Object>) at(job.body(), NODE_POD + ".metadata.annotations"))
                .containsEntry("example.com/cost-center", "42");
        assertThat((Map<String, Object>) at(job.body(), "spec.trainer.resourcesPerNode.limits"))
                .containsEntry("nvidia.com/gpu", "2");
    }

    @Test
    void theRequestNamesAnotherRuntimeOnlyForATrainJobTemplate() {
        RenderRequest gang = gang("trainjob", NODES);
        JobSubmission s = gang.record().submission();
        RenderRequest deepspeed = withSubmission(
                gang,
                JobSubmission.onRuntime(
                        s.request(),
                        "trainjob",
                        s.image(),
                        s.command(),
                        s.args(),
                        s.metadata(),
                        s.env(),
                        s.pod(),
                        "deepspeed-distributed"));

        RenderedWorkload job = renderer.render(deepspeed);

        assertThat((Map<String, Object>) at(job.body(), "spec.runtimeRef"))
                .containsEntry("name", "deepspeed-distributed")
                .containsEntry("kind", "ClusterTrainingRuntime");
        RenderRequest single = whole("job", 1);
        JobSubmission j = single.record().submission();
        assertThatThrownBy(() -> renderer.render(withSubmission(
                        single,
                        JobSubmission.onRuntime(
                                j.request(),
                                "job",
                                j.image(),
                                j.command(),
                                j.args(),
                                j.metadata(),
                                j.env(),
                                j.pod(),
                                "deepspeed-distributed"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("names the training runtime 'deepspeed-distributed', but a Job has none");
    }

    private static RenderRequest withSubmission(RenderRequest request, JobSubmission submission) {
        var record = request.record();
        return new RenderRequest(
                request.namespace(),
                request.objectName(),
                new JobRecord(submission, record.spec(), record.status(), record.createdAt(), record.version()),
                request.placement(),
                request.gpus(),
                request.gpuMemoryMib());
    }

    @Test
    void aTemplatesOwnRuntimeAndOtherManagersPatchesAreKept(@TempDir Path folder) throws IOException {
        Files.writeString(folder.resolve("deepspeed.yaml"), """
                apiVersion: trainer.kubeflow.org/v1alpha1
                kind: TrainJob
                spec:
                  runtimeRef: {name: deepspeed-distributed}
                  trainer:
                    image: registry.example/ds:1
                    resourcesPerNode: {limits: {nvidia.com/gpu: 1, cpu: "2"}}
                  runtimePatches:
                    - manager: example.io/platform-team
                      trainingRuntimeSpec: {template: {spec: {replicatedJobs: [
                        {name: node, template: {spec: {template: {spec: {nodeSelector: {pool: a100}}}}}}]}}}
                """);
        TemplateRenderer custom = new TemplateRenderer(TemplateCatalog.load(Optional.of(folder)));

        RenderedWorkload job = custom.render(gang("deepspeed", NODES.subList(0, 2)));

        assertThat((String) at(job.body(), "spec.runtimeRef.name")).isEqualTo("deepspeed-distributed");
        List<Map<String, Object>> patches = at(job.body(), "spec.runtimePatches");
        assertThat(patches)
                .extracting(p -> p.get("manager"))
                .containsExactly("example.io/platform-team", TrainJobRuntimePatch.MANAGER);
        assertThat((Object) at(
                        patches.get(0),
                        "trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec"
                                + ".template.spec.nodeSelector"))
                .isEqualTo(Map.of("pool", "a100"));
        // the plan alone decides the GPUs; the template's other limits stay
        assertThat((Map<String, Object>) at(job.body(), "spec.trainer.resourcesPerNode.limits"))
                .containsEntry("nvidia.com/gpu", "8")
                .containsEntry("cpu", "2");
        assertThat((Object) at(job.body(), "spec.trainer.numNodes")).isEqualTo(2);
    }

    @Test
    void aTrainJobTemplateWithoutTrainerOrImageIsRefusedAtLoad(@TempDir Path folder) throws IOException {
        Files.writeString(folder.resolve("notrainer.yaml"), """
                apiVersion: trainer.kubeflow.org/v1alpha1
                kind: TrainJob
                spec:
                  runtimeRef: {name: torch-distributed}
                """);
        Files.writeString(folder.resolve("noimage.yaml"), """
                apiVersion: trainer.kubeflow.org/v1alpha1
                kind: TrainJob
                spec:
                  runtimeRef: {name: torch-distributed}
                  trainer: {numNodes: 1}
                """);

        assertThatThrownBy(() -> TemplateCatalog.load(Optional.of(folder)))
                .isInstanceOf(TemplateException.class)
                .hasMessageContaining("notrainer.yaml: spec.trainer is missing")
                .hasMessageContaining("noimage.yaml: spec.trainer.image is missing; give a default image");
    }
}
