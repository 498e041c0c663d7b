package io.quotient.adapters.template;

import io.quotient.core.model.Gang;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.request.GpuAsk;
import io.quotient.core.request.JobRequestInput;
import io.quotient.core.request.Placement;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.Metadata;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

/** Builds render requests for the tests: one team, one job, one node with 80 GiB GPUs. */
final class RenderFixtures {

    static final String NAMESPACE = "quotient-jobs";
    static final String NODE = "gpu-node-2";
    static final long GPU_MEMORY_MIB = 81920;
    static final Instant NOW = Instant.parse("2024-05-01T10:00:00Z");

    private RenderFixtures() {}

    static JobSubmission submission(
            String template, String image, List<String> command, Map<String, String> labels, Map<String, String> env) {
        JobRequestInput input = JobRequestInput.of("team-a", "train-1")
                .with(new GpuAsk(null, null, null, null, null, null))
                .with(new Placement(List.of()));
        return new JobSubmission(
                input, template, image, command, List.of("--epochs", "3"), Metadata.labels(labels), env);
    }

    static JobSubmission submission(String template) {
        return submission(
                template,
                "registry.example/train:1.0",
                List.of("python", "train.py"),
                Map.of("owner", "alice"),
                Map.of("LEARNING_RATE", "0.01"));
    }

    static JobSpec spec(GpuRequest gpu) {
        return new JobSpec(new JobId("team-a", "train-1"), gpu, 4000, 16384, Set.of(), 0, true, Duration.ZERO);
    }

    static RenderRequest request(JobSubmission submission, GpuRequest gpu, List<GpuBinding> gpus) {
        JobSpec spec = spec(gpu);
        JobRecord record = new JobRecord(submission, spec, JobStatus.pending("new"), NOW, "1");
        List<Integer> indices = gpus.stream().map(GpuBinding::index).toList();
        int milli = gpus.isEmpty() ? 0 : gpus.get(0).milli();
        PlacedJob placed = new PlacedJob(spec, NODE, indices, milli, QuotaState.OVER_QUOTA, NOW);
        return new RenderRequest(NAMESPACE, "team-a.train-1", record, placed, gpus, GPU_MEMORY_MIB);
    }

    static RenderRequest whole(String template, int count) {
        List<GpuBinding> gpus = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            gpus.add(new GpuBinding(i, null, 1.0));
        }
        return request(submission(template), new GpuRequest.WholeGpus(count), gpus);
    }

    static RenderRequest fraction(String template, int milli, int limitMilli, String... uuids) {
        List<GpuBinding> gpus = new ArrayList<>();
        for (int i = 0; i < uuids.length; i++) {
            gpus.add(new GpuBinding(i + 3, uuids[i], milli / 1000.0));
        }
        return request(submission(template), new GpuRequest.Fraction(milli, limitMilli, uuids.length), gpus);
    }

    /** A gang of {@code nodes.size()} replicas × 8 whole GPUs (4 CPUs, 16 GiB each), one replica per node. */
    static RenderRequest gang(String template, List<String> nodes) {
        JobSpec spec = new JobSpec(
                new JobId("team-a", "train-1"),
                new GpuRequest.WholeGpus(8),
                4000,
                16384,
                Set.of(),
                0,
                true,
                Duration.ZERO,
                Gang.of(nodes.size()));
        List<Integer> all = IntStream.range(0, 8).boxed().toList();
        PlacedJob placed = new PlacedJob(
                spec,
                nodes.get(0),
                all,
                1000,
                QuotaState.IN_QUOTA,
                NOW,
                nodes.subList(1, nodes.size()).stream()
                        .map(n -> new PlacedJob.Replica(n, all))
                        .toList());
        JobRecord record = new JobRecord(submission(template), spec, JobStatus.pending("new"), NOW, "1");
        List<GpuBinding> gpus =
                all.stream().map(i -> new GpuBinding(i, null, 1.0)).toList();
        return new RenderRequest(NAMESPACE, "team-a.train-1", record, placed, gpus, GPU_MEMORY_MIB);
    }

    static TemplateRenderer builtInRenderer() {
        return new TemplateRenderer(TemplateCatalog.builtIn());
    }
}
