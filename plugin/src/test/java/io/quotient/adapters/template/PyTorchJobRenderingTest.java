package io.quotient.adapters.template;

import static io.quotient.adapters.template.RenderFixtures.*;
import static io.quotient.adapters.template.TreePaths.at;
import static io.quotient.adapters.template.TreePaths.env;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The PyTorchJob rule: one node for all replicas; whole GPUs one per replica (Master + count-1 Workers). */
class PyTorchJobRenderingTest {

    private static final String MASTER = "spec.pytorchReplicaSpecs.Master";
    private static final String WORKER = "spec.pytorchReplicaSpecs.Worker";

    private final TemplateRenderer renderer = builtInRenderer();

    @Test
    void fourGpusBecomeOneMasterAndThreeWorkersWithOneGpuEachOnTheSameNode() {
        RenderedWorkload job = renderer.render(whole("pytorchjob", 4));

        assertThat(job.kind()).isEqualTo(WorkloadKind.PYTORCH_JOB);
        assertThat((Object) at(job.body(), MASTER + ".replicas")).isEqualTo(1);
        assertThat((Object) at(job.body(), WORKER + ".replicas")).isEqualTo(3);
        for (String replica : List.of(MASTER, WORKER)) {
            Map<String, Object> container = at(job.body(), replica + ".template.spec.containers[0]");
            assertThat((TreePaths.<Map<String, Object>>at(container, "resources.limits")))
                    .containsEntry("nvidia.com/gpu", "1");
            assertThat((String) at(container, "resources.requests.cpu")).isEqualTo("1000m");
            assertThat(container).containsEntry("image", "registry.example/train:1.0");
            Map<String, Object> expression = at(
                    job.body(),
                    replica + ".template.spec.affinity.nodeAffinity"
                            + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]");
            assertThat(expression).containsEntry("values", List.of(NODE));
            assertThat((TreePaths.<Map<String, Object>>at(job.body(), replica + ".template.metadata.labels")))
                    .containsEntry("quotient.io/job", "train-1");
        }
    }

    @Test
    void oneGpuRunsTheMasterAlone() {
        RenderedWorkload job = renderer.render(whole("pytorchjob", 1));

        assertThat((TreePaths.<Map<String, Object>>at(job.body(), "spec.pytorchReplicaSpecs")))
                .containsOnlyKeys("Master");
        assertThat((TreePaths.<Map<String, Object>>at(
                        job.body(), MASTER + ".template.spec.containers[0].resources.limits")))
                .containsEntry("nvidia.com/gpu", "1");
    }

    @Test
    void fractionRunsTheMasterAloneWithTheFractionEnv() {
        RenderedWorkload job = renderer.render(fraction("pytorchjob", 400, 400, "GPU-pt"));

        assertThat((TreePaths.<Map<String, Object>>at(job.body(), "spec.pytorchReplicaSpecs")))
                .containsOnlyKeys("Master");
        Map<String, Object> container = at(job.body(), MASTER + ".template.spec.containers[0]");
        assertThat(env(container, "NVIDIA_VISIBLE_DEVICES")).isEqualTo("GPU-pt");
        assertThat((TreePaths.<Map<String, Object>>at(job.body(), MASTER + ".template.metadata.annotations")))
                .containsEntry("gpu-fraction", "0.4");
    }
}
