package io.quotient.adapters.template;

import io.quotient.core.scheduling.Gang;
import io.quotient.core.scheduling.GpuRequest;
import io.quotient.core.scheduling.JobId;
import io.quotient.core.scheduling.JobSpec;
import io.quotient.core.scheduling.PlacedJob;
import io.quotient.core.scheduling.QuotaState;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import static io.quotient.adapters.template.RenderFixtures.*;
import static io.quotient.adapters.template.TreePaths.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A gang of 4 replicas × 8 GPUs renders as Master + 3 Workers, 8 GPUs each, one per chosen node. */
class GangRenderingTest {

    private static final String MASTER = "spec.pytorchReplicaSpecs.Master";
    private static final String WORKER = "spec.pytorchReplicaSpecs.Worker";
    private static final List<String> NODES = List.of("gpu-node-2", "gpu-node-5", "gpu-node-7", "gpu-node-9");

    private static RenderRequest gang(String template) {
        JobSpec spec = new JobSpec(new JobId("team-a", "train-1"), new GpuRequest.WholeGpus(8), 4000, 16384, Set.of(),
                0, true, Duration.ZERO, Gang.of(4));
        List<Integer> all = IntStream.range(0, 8).boxed().toList();
        PlacedJob placed = new PlacedJob(spec, NODES.get(0), all, 1000, QuotaState.IN_QUOTA, NOW,
                NODES.subList(1, 4).stream().map(n -> new PlacedJob.Replica(n, all)).toList());
        JobRecord record = new JobRecord(submission(template), spec, JobStatus.pending("new"), NOW, "1");
        List<GpuBinding> gpus = all.stream().map(i -> new GpuBinding(i, null, 1.0)).toList();
        return new RenderRequest(NAMESPACE, "team-a.train-1", record, placed, gpus, GPU_MEMORY_MIB);
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
            Map<String, Object> expression = at(job.body(), replica + ".template.spec.affinity.nodeAffinity"
                    + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]");
            assertThat(expression).containsEntry("values", NODES);
            Map<String, Object> apart = at(job.body(), replica + ".template.spec.affinity.podAntiAffinity"
                    + ".requiredDuringSchedulingIgnoredDuringExecution[0]");
            assertThat(apart).containsEntry("topologyKey", "kubernetes.io/hostname");
            assertThat((TreePaths.<Map<String, Object>>at(apart, "labelSelector.matchLabels")))
                    .containsEntry("quotient.io/job", "train-1").containsEntry("quotient.io/team", "team-a");
        }
    }

    @Test
    void aTemplateOfOnePodRefusesAGang() {
        assertThatThrownBy(() -> builtInRenderer().render(gang("job")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PyTorchJob");
    }
}
