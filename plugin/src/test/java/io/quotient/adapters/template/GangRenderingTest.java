package io.quotient.adapters.template;

import static io.quotient.adapters.template.RenderFixtures.*;
import static io.quotient.adapters.template.TreePaths.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A gang of 4 replicas × 8 GPUs renders as Master + 3 Workers, 8 GPUs each, one per chosen node. */
class GangRenderingTest {

    private static final String MASTER = "spec.pytorchReplicaSpecs.Master";
    private static final String WORKER = "spec.pytorchReplicaSpecs.Worker";
    private static final List<String> NODES = List.of("gpu-node-2", "gpu-node-5", "gpu-node-7", "gpu-node-9");

    private static RenderRequest gang(String template) {
        return RenderFixtures.gang(template, NODES);
    }

    @Test
    void aGangIsAMasterAndWorkersWithTheWholeRequestEachPinnedOnePerChosenNode() {
        RenderedWorkload job = builtInRenderer().render(gang("pytorchjob"));

        assertThat((Object) at(job.body(), MASTER + ".replicas")).isEqualTo(1);
        assertThat((Object) at(job.body(), WORKER + ".replicas")).isEqualTo(3);
        for (String replica : List.of(MASTER, WORKER)) {
            Map<String, Object> container = at(job.body(), replica + ".template.spec.containers[0]");
            assertThat((TreePaths.<Map<String, Object>>at(container, "resources.limits")))
                    .containsEntry("nvidia.com/gpu", "8");
            assertThat((String) at(container, "resources.requests.cpu")).isEqualTo("4000m");
            Map<String, Object> expression = at(
                    job.body(),
                    replica + ".template.spec.affinity.nodeAffinity"
                            + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]");
            assertThat(expression).containsEntry("values", NODES);
            Map<String, Object> apart = at(
                    job.body(),
                    replica + ".template.spec.affinity.podAntiAffinity"
                            + ".requiredDuringSchedulingIgnoredDuringExecution[0]");
            assertThat(apart).containsEntry("topologyKey", "kubernetes.io/hostname");
            assertThat((TreePaths.<Map<String, Object>>at(apart, "labelSelector.matchLabels")))
                    .containsEntry("quotient.io/job", "train-1")
                    .containsEntry("quotient.io/team", "team-a");
        }
    }

    @Test
    void aTemplateOfOnePodRefusesAGang() {
        assertThatThrownBy(() -> builtInRenderer().render(gang("job")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PyTorchJob");
    }
}
