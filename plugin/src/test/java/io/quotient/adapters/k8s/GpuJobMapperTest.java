package io.quotient.adapters.k8s;

import io.kubernetes.client.openapi.JSON;
import io.quotient.core.scheduling.GpuRequest;
import io.quotient.core.scheduling.JobId;
import io.quotient.core.scheduling.JobRequestInput;
import io.quotient.core.scheduling.JobSpec;
import io.quotient.core.scheduling.QuotaState;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.JobSubmission;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class GpuJobMapperTest {

    private static final Instant CREATED = Instant.parse("2024-05-01T10:00:00.123456789Z");

    /** Stands in for the service's validator: a fraction request becomes a Fraction spec. */
    static JobSpec specOf(JobRequestInput in) {
        GpuRequest gpu = in.fraction() != null
                ? new GpuRequest.Fraction((int) Math.round(in.fraction() * 1000),
                (int) Math.round(in.fractionLimit() * 1000), in.gpuDevices() == null ? 1 : in.gpuDevices())
                : new GpuRequest.WholeGpus(in.gpuCount() == null ? 0 : in.gpuCount());
        return new JobSpec(new JobId(in.team(), in.name()), gpu, in.cpuMilli() == null ? 0 : in.cpuMilli(),
                in.memoryMib() == null ? 0 : in.memoryMib(), in.gpuModels(), 0, true, Duration.ZERO);
    }

    private final GpuJobMapper mapper = new GpuJobMapper(GpuJobMapperTest::specOf);

    static JobRecord record(JobStatus status) {
        JobRequestInput input = new JobRequestInput("team-a", "nb-1", null, 0.3, 0.5, null, null, 1, 2000L, 4096L,
                5, false, 60L, Set.of("H100", "A100"));
        JobSubmission submission = new JobSubmission(input, "notebook", "jupyter:1", List.of("start.sh"),
                List.of("--port", "8888"), Map.of("owner", "bob"), Map.of("MODE", "dev: \"x\""));
        return new JobRecord(submission, specOf(input), status, CREATED, null);
    }

    @Test
    void recordSurvivesTheTripThroughTheResourceAndItsJson() {
        JobStatus placed = new JobStatus(JobPhase.RUNNING, "gpu-node-1", List.of(new GpuBinding(2, "GPU-abc", 0.3)),
                QuotaState.IN_QUOTA, null, Instant.parse("2024-05-01T10:00:05Z"));
        GpuJobResource resource = mapper.toResource(record(placed), "quotient-system");
        resource.getMetadata().resourceVersion("42");
        JSON json = new JSON();
        GpuJobResource decoded = json.deserialize(json.serialize(resource), GpuJobResource.class);

        JobRecord back = mapper.toRecord(decoded);

        assertThat(back.submission()).isEqualTo(record(placed).submission());
        assertThat(back.spec()).isEqualTo(record(placed).spec());
        assertThat(back.status()).isEqualTo(placed);
        assertThat(back.createdAt()).isEqualTo(CREATED);
        assertThat(back.version()).isEqualTo("42");
    }

    @Test
    void resourceCarriesNameLabelsAndTheSpecFieldsOfTheConventions() {
        GpuJobResource resource = mapper.toResource(record(JobStatus.pending("waiting")), "ns-1");

        assertThat(resource.getMetadata().getName()).isEqualTo("team-a.nb-1");
        assertThat(resource.getMetadata().getNamespace()).isEqualTo("ns-1");
        assertThat(resource.getMetadata().getLabels()).containsEntry("quotient.io/team", "team-a")
                .containsEntry("quotient.io/job", "nb-1").containsEntry("app.kubernetes.io/managed-by", "quotient");
        String json = new JSON().serialize(resource);
        assertThat(json).contains("\"apiVersion\":\"quotient.io/v1alpha1\"", "\"kind\":\"GpuJob\"",
                "\"gpu\":{\"fraction\":0.3,\"fractionLimit\":0.5}", "\"gpuModels\":[\"A100\",\"H100\"]",
                "\"minRuntimeSeconds\":60", "\"phase\":\"Pending\"", "\"reason\":\"waiting\"");
        assertThat(json).doesNotContain("\"count\"", "null");
    }

    @Test
    void resourceWithoutStatusReadsAsPendingAwaitingTheScheduler() {
        GpuJobResource resource = mapper.toResource(record(JobStatus.pending("x")), "ns");
        resource.setStatus(null);
        resource.getMetadata().resourceVersion("7");

        JobRecord back = mapper.toRecord(resource);

        assertThat(back.phase()).isEqualTo(JobPhase.PENDING);
        assertThat(back.status().reason()).isEqualTo(GpuJobMapper.UNDECIDED_REASON);
    }
}
