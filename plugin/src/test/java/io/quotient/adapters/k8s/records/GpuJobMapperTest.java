package io.quotient.adapters.k8s.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.quotient.adapters.k8s.GpuJobResource;
import io.quotient.adapters.k8s.TenantScope;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.request.GangAsk;
import io.quotient.core.request.GpuAsk;
import io.quotient.core.request.JobRequestInput;
import io.quotient.core.request.Placement;
import io.quotient.core.request.RequestException;
import io.quotient.core.request.Resources;
import io.quotient.core.request.RuntimeOptions;
import io.quotient.core.tenancy.TeamNamespaces;
import io.quotient.deploy.Placements;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.IdleCondition;
import io.quotient.deploy.port.JobPhase;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.Metadata;
import io.quotient.deploy.port.PodOptions;
import io.quotient.deploy.port.VolumeRequest;
import io.quotient.deploy.port.WorkloadRef;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GpuJobMapperTest {

    private static final Instant CREATED = Instant.parse("2024-05-01T10:00:00.123456789Z");

    /** Stands in for the service's validator: a fraction request becomes a Fraction spec. */
    static JobSpec specOf(JobRequestInput in) {
        GpuRequest gpu = in.gpu().fraction() != null
                ? new GpuRequest.Fraction(
                        in.gpu().fraction().movePointRight(3).intValueExact(),
                        in.gpu().fractionLimit().movePointRight(3).intValueExact(),
                        in.gpu().devices() == null ? 1 : in.gpu().devices())
                : new GpuRequest.WholeGpus(
                        in.gpu().count() == null ? 0 : in.gpu().count());
        return new JobSpec(
                new JobId(in.team(), in.name()),
                gpu,
                in.resources().cpuMilli() == null ? 0 : in.resources().cpuMilli(),
                in.resources().memoryMib() == null ? 0 : in.resources().memoryMib(),
                in.placement().models() == null
                        ? null
                        : new LinkedHashSet<>(in.placement().models()),
                0,
                true,
                Duration.ZERO);
    }

    private final GpuJobMapper mapper = new GpuJobMapper(s -> specOf(s.request()));
    private final TenantScope scope = new TenantScope(
            "quotient-system", () -> TeamNamespaces.of(Map.of("team-a", List.of("ml-a", "ml-a2")), "quotient-system"));

    static JobRecord record(JobStatus status) {
        return record(status, "quotient-system");
    }

    static JobRecord record(JobStatus status, String namespace) {
        JobRequestInput input = JobRequestInput.of("team-a", "nb-1")
                .with(GpuAsk.fraction(0.3, 0.5).onDevices(1))
                .with(new Resources(2000L, 4096L))
                .with(new Placement(List.of("H100", "A100")))
                .with(new RuntimeOptions(5, false, 60L));
        PodOptions pod = new PodOptions(
                namespace,
                "trainer",
                List.of(new VolumeRequest("data", "datasets", null, null, "/data", true)),
                List.of("regcred"));
        JobSubmission submission = new JobSubmission(
                input,
                "notebook",
                "jupyter:1",
                List.of("start.sh"),
                List.of("--port", "8888"),
                new Metadata(Map.of("owner", "bob"), Map.of("example.com/owner", "bob")),
                Map.of("MODE", "dev: \"x\""),
                pod);
        return new JobRecord(submission, specOf(input), status, CREATED, null);
    }

    private TenantScope.Location location(JobRecord record) {
        return scope.now().locationIn(record.submission().pod().namespace(), record.id());
    }

    @Test
    void anAdoptedWorkloadsRecordNamesItAndIsOwnedByIt() {
        WorkloadRef workload = new WorkloadRef("kubeflow.org/v1", "PyTorchJob", "llm", "uid-7");
        JobRequestInput input =
                JobRequestInput.of("team-a", "llm").with(GpuAsk.whole(8)).with(new GangAsk(4, null));
        JobRecord adopted = new JobRecord(
                JobSubmission.governing(input, "ml-a", workload),
                specOf(input),
                JobStatus.pending("waiting"),
                CREATED,
                null);
        GpuJobResource resource = mapper.toResource(adopted, scope.now().locationIn("ml-a", adopted.id()));
        assertThat(resource.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
            assertThat(owner.getKind()).isEqualTo("PyTorchJob");
            assertThat(owner.getUid()).isEqualTo("uid-7");
            assertThat(owner.getController()).isNull();
        });
        JSON json = new JSON();
        GpuJobResource decoded = json.deserialize(json.serialize(resource), GpuJobResource.class);
        JobSubmission read = mapper.toRecord(decoded, scope.now()).submission();
        assertThat(read.workload()).isEqualTo(workload);
        assertThat(read).isEqualTo(adopted.submission());
    }

    @Test
    void recordSurvivesTheTripThroughTheResourceAndItsJson() {
        JobStatus placed = new JobStatus(
                JobPhase.RUNNING,
                "gpu-node-1",
                List.of(new GpuBinding(2, "GPU-abc", 0.3)),
                QuotaState.IN_QUOTA,
                null,
                Instant.parse("2024-05-01T10:00:05Z"));
        for (String namespace : List.of("quotient-system", "ml-a2")) {
            GpuJobResource resource = mapper.toResource(record(placed, namespace), location(record(placed, namespace)));
            resource.getMetadata().resourceVersion("42");
            JSON json = new JSON();
            GpuJobResource decoded = json.deserialize(json.serialize(resource), GpuJobResource.class);

            assertThat(mapper.toRecord(decoded, scope.now()).submission())
                    .isEqualTo(record(placed, namespace).submission());
        }
        GpuJobResource resource = mapper.toResource(record(placed), location(record(placed)));
        resource.getMetadata().resourceVersion("42");
        JSON json = new JSON();
        JobRecord back = mapper.toRecord(json.deserialize(json.serialize(resource), GpuJobResource.class), scope.now());

        assertThat(back.submission()).isEqualTo(record(placed).submission());
        assertThat(back.spec()).isEqualTo(record(placed).spec());
        assertThat(back.status()).isEqualTo(placed);
        assertThat(back.createdAt()).isEqualTo(CREATED);
        assertThat(back.version()).isEqualTo("42");
    }

    @Test
    void aGangsReplicasSurviveTheTripThroughTheResourceAndItsJson() {
        JobStatus placed = new JobStatus(
                JobPhase.PLACED,
                "gpu-node-1",
                List.of(new GpuBinding(0, null, 1.0)),
                QuotaState.IN_QUOTA,
                null,
                Instant.parse("2024-05-01T10:00:05Z"),
                List.of(
                        new PlacedJob.Replica("gpu-node-2", List.of(0)),
                        new PlacedJob.Replica("gpu-node-3", List.of(0))));
        GpuJobResource resource = mapper.toResource(record(placed), location(record(placed)));
        JSON json = new JSON();
        JobRecord back = mapper.toRecord(json.deserialize(json.serialize(resource), GpuJobResource.class), scope.now());

        assertThat(back.status()).isEqualTo(placed);
        assertThat(Placements.of(back).replicas())
                .extracting(r -> r.node())
                .containsExactly("gpu-node-1", "gpu-node-2", "gpu-node-3");
    }

    @Test
    void aJobsKindAndItsIdleConditionSurviveTheTripThroughTheResourceAndItsJson() {
        IdleCondition idle = new IdleCondition(
                IdleCondition.WARNING,
                "notebook nb-1 of team team-a has used its GPUs at 0.4 %",
                Instant.parse("2024-05-01T11:00:00Z"));
        JobStatus warned = JobStatus.placed(
                        "gpu-node-1", List.of(new GpuBinding(0, "GPU-1", 0.3)), QuotaState.IN_QUOTA, CREATED)
                .withIdle(idle);
        JobRecord plain = record(warned);
        JobSubmission asNotebook =
                plain.submission().withRequest(plain.submission().request().withKind("notebook"));
        JobRecord notebook = new JobRecord(asNotebook, specOf(asNotebook.request()), warned, CREATED, null);
        GpuJobResource resource = mapper.toResource(notebook, location(notebook));
        assertThat(resource.getSpec().kind()).isEqualTo("notebook");
        assertThat(resource.getStatus().conditions()).singleElement().satisfies(c -> {
            assertThat(c.type()).isEqualTo("Idle");
            assertThat(c.status()).isEqualTo("True");
            assertThat(c.lastTransitionTime()).isEqualTo("2024-05-01T11:00:00Z");
        });
        JSON json = new JSON();
        JobRecord back = mapper.toRecord(json.deserialize(json.serialize(resource), GpuJobResource.class), scope.now());

        assertThat(back.submission().request().runtime().kind()).isEqualTo("notebook");
        assertThat(back.status().idle()).isEqualTo(idle);
        assertThat(mapper.toResource(plain, location(plain)).getSpec().kind())
                .as("left out when the request leaves it open")
                .isNull();
    }

    @Test
    void aQueuePositionAfterAnIdleReleaseSurvivesTheTripThroughTheStatusAndItsJson() {
        Instant released = Instant.parse("2024-05-01T12:34:56.789Z");
        JobRecord requeued = record(JobStatus.pending("Preempted: idle: ...")).withQueuedAt(released);
        GpuJobResource resource = mapper.toResource(requeued, location(requeued));
        assertThat(resource.getStatus().queuedAt()).isEqualTo("2024-05-01T12:34:56.789Z");
        JSON json = new JSON();
        JobRecord back = mapper.toRecord(json.deserialize(json.serialize(resource), GpuJobResource.class), scope.now());
        assertThat(back.queuedAt()).isEqualTo(released);
        assertThat(back.createdAt()).isEqualTo(CREATED);

        JobRecord plain = record(JobStatus.pending("waiting"));
        GpuJobResource unmoved = mapper.toResource(plain, location(plain));
        assertThat(unmoved.getStatus().queuedAt())
                .as("left out while it is the creation")
                .isNull();
        assertThat(mapper.toRecord(unmoved, scope.now()).queuedAt()).isEqualTo(CREATED);
    }

    @Test
    void aTrainJobsRuntimeSurvivesTheTripThroughTheResourceAndItsJson() {
        JobRecord gang = record(JobStatus.pending("new"));
        JobSubmission s = gang.submission();
        JobRecord withRuntime = new JobRecord(
                JobSubmission.onRuntime(
                        s.request(),
                        "trainjob",
                        s.image(),
                        s.command(),
                        s.args(),
                        s.metadata(),
                        s.env(),
                        s.pod(),
                        "deepspeed-distributed"),
                gang.spec(),
                gang.status(),
                CREATED,
                null);
        GpuJobResource resource = mapper.toResource(withRuntime, location(withRuntime));
        JSON json = new JSON();
        JobRecord back = mapper.toRecord(json.deserialize(json.serialize(resource), GpuJobResource.class), scope.now());

        assertThat(resource.getSpec().runtime()).isEqualTo("deepspeed-distributed");
        assertThat(back.submission()).isEqualTo(withRuntime.submission());
    }

    @Test
    void resourceCarriesNameLabelsAndTheSpecFieldsOfTheConventions() {
        GpuJobResource resource =
                mapper.toResource(record(JobStatus.pending("waiting")), location(record(JobStatus.pending("waiting"))));

        assertThat(resource.getMetadata().getName()).isEqualTo("team-a.nb-1");
        assertThat(resource.getMetadata().getNamespace()).isEqualTo("quotient-system");
        JobRecord inTeamNamespace = record(JobStatus.pending("waiting"), "ml-a");
        assertThat(mapper.toResource(inTeamNamespace, location(inTeamNamespace))
                        .getMetadata()
                        .getName())
                .as("in the team's own namespace the job's name is enough")
                .isEqualTo("nb-1");
        assertThat(resource.getMetadata().getLabels())
                .containsEntry("quotient.io/team", "team-a")
                .containsEntry("quotient.io/job", "nb-1")
                .containsEntry("app.kubernetes.io/managed-by", "quotient");
        String json = new JSON().serialize(resource);
        assertThat(json)
                .contains(
                        "\"apiVersion\":\"quotient.io/v1alpha1\"",
                        "\"kind\":\"GpuJob\"",
                        "\"gpu\":{\"fraction\":0.3,\"fractionLimit\":0.5}",
                        "\"gpuModels\":[\"H100\",\"A100\"]",
                        "\"minRuntimeSeconds\":60",
                        "\"phase\":\"Pending\"",
                        "\"reason\":\"waiting\"",
                        "\"serviceAccountName\":\"trainer\"",
                        "\"imagePullSecrets\":[\"regcred\"]",
                        "\"volumes\":[{\"name\":\"data\",\"persistentVolumeClaim\":\"datasets\",\"mountPath\":\"/data\","
                                + "\"readOnly\":true}]");
        assertThat(json).doesNotContain("\"count\"", "null");
    }

    @Test
    void resourceWithoutStatusReadsAsPendingAwaitingTheScheduler() {
        GpuJobResource resource =
                mapper.toResource(record(JobStatus.pending("x")), location(record(JobStatus.pending("x"))));
        resource.setStatus(null);
        resource.getMetadata().resourceVersion("7");

        JobRecord back = mapper.toRecord(resource, scope.now());

        assertThat(back.phase()).isEqualTo(JobPhase.PENDING);
        assertThat(back.status().reason()).isEqualTo(JobStatus.UNDECIDED_REASON);
    }

    @Test
    void aGpuJobAppliedWithKubectlTakesItsTeamFromTheNamespaceAndItsNameFromMetadata() {
        GpuJobResource applied = new GpuJobResource(
                new V1ObjectMeta().namespace("ml-a2").name("train").resourceVersion("3"),
                new GpuJobSpec(
                        null,
                        null,
                        null,
                        "busybox",
                        null,
                        null,
                        new GpuJobSpec.Gpu(2, null, null, null, null),
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null),
                null);

        JobRecord record = mapper.toRecord(applied, scope.now());

        assertThat(record.id()).isEqualTo(new JobId("team-a", "train"));
        assertThat(record.submission().pod().namespace()).isEqualTo("ml-a2");
        assertThat(record.phase()).isEqualTo(JobPhase.PENDING);
    }

    @Test
    void aGpuJobCannotClaimAnotherTeamOrLiveOutsideTheTeamsNamespaces() {
        GpuJobSpec claimsTeamB = new GpuJobSpec(
                "team-b", null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null, null, null, null, null, null);
        assertThatThrownBy(() -> mapper.toRecord(
                        new GpuJobResource(new V1ObjectMeta().namespace("ml-a").name("x"), claimsTeamB, null),
                        scope.now()))
                .isInstanceOfSatisfying(
                        RequestException.class, e -> assertThat(e.field()).isEqualTo("spec.team"))
                .hasMessageContaining("belongs to team team-a");
        assertThatThrownBy(() -> mapper.toRecord(
                        new GpuJobResource(
                                new V1ObjectMeta().namespace("default").name("x"), claimsTeamB, null),
                        scope.now()))
                .hasMessageContaining("belongs to no team");
    }
}
