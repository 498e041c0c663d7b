package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.BatchV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimSpec;
import io.kubernetes.client.openapi.models.V1VolumeResourceRequirements;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.harness.FakeKubelet;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Teams as tenants on the real control plane: each team's jobs live in its own namespace; REST callers are
 * authenticated by TokenReview and authorised by SubjectAccessReview (the quotient-team-member ClusterRole bound in
 * a team's namespace); a GpuJob applied with a team member's own token is run like a REST deploy, its status is the
 * service's alone, and deleting it stops the job; reserved names are refused.
 *
 * <p>The admission webhook for GpuJobs is in {@link GpuJobAdmissionIT}, finding the cluster through
 * {@code KUBECONFIG} in {@link KubeconfigIT}.
 */
@RealKubernetes
class TenancyIT {

    @BeforeAll
    static void installCrdAndRoles(ApiClient client) {
        QuotientManifests.installCrdAndRoles(client);
    }

    @Test
    void teamsWorkInTheirNamespacesAsTheClusterAllows(
            ControlPlane plane, TestNamespace service, FakeGpuNodes nodes, FakeKubelet kubelet, @TempDir Path dir)
            throws Exception {
        nodes.create(FakeGpuNodeSpec.of("tenancy", 8, 81920, "NVIDIA-H100-80GB-HBM3"));
        ApiClient admin = plane.apiClient();
        try (TestNamespace a = TestNamespace.create(admin, plane.serverMinorVersion(), "team-a");
                TestNamespace b = TestNamespace.create(admin, plane.serverMinorVersion(), "team-b")) {
            Path teams = TeamsFile.writeText(
                    dir.resolve("teams.yaml"),
                    "teams:\n"
                            + "  - name: team-a\n    guaranteedGpus: 4\n    namespaces: [" + a.name() + "]\n"
                            + "  - name: team-b\n    guaranteedGpus: 4\n    namespaces: [" + b.name() + "]\n");
            String alice = TeamMembers.token(admin, a.name(), "alice");
            String bob = TeamMembers.token(admin, b.name(), "bob");
            new CoreV1Api(admin)
                    .createNamespacedPersistentVolumeClaim(
                            a.name(),
                            new V1PersistentVolumeClaim()
                                    .metadata(new V1ObjectMeta().name("datasets"))
                                    .spec(new V1PersistentVolumeClaimSpec()
                                            .accessModes(List.of("ReadOnlyMany"))
                                            .resources(new V1VolumeResourceRequirements()
                                                    .requests(Map.of("storage", Quantity.fromString("1Gi"))))))
                    .execute();

            try (QuotientService quotient =
                    QuotientService.inProcess(plane, service.name(), teams, "--quotient.access.mode=kubernetes")) {
                QuotientApi anonymous = quotient.api();
                QuotientApi asAlice = quotient.api(alice);
                QuotientApi asBob = quotient.api(bob);
                Map<String, Object> train = Requests.with(
                        Requests.with(
                                Requests.wholeGpus("train", 1),
                                "volumes",
                                List.of(Map.of(
                                        "name",
                                        "data",
                                        "persistentVolumeClaim",
                                        "datasets",
                                        "mountPath",
                                        "/data",
                                        "readOnly",
                                        true))),
                        "serviceAccountName",
                        "default");

                // no token, or a token the cluster does not know: 401, nothing created
                assertThat(anonymous.deploy("team-a", train).status()).isEqualTo(401);
                assertThat(quotient.api("not-a-token").deploy("team-a", train).status())
                        .isEqualTo(401);
                assertThat(anonymous.cluster().status())
                        .as("every path, not only the jobs")
                        .isEqualTo(401);
                assertThat(anonymous.healthy()).as("the probes stay open").isTrue();

                // alice deploys for team-a: the Job is in team-a's namespace and mounts team-a's PVC
                QuotientApi.Answer placed = asAlice.deploy("team-a", train);
                assertThat(placed.status()).as("%s", placed).isEqualTo(201);
                assertThat(placed.text("namespace")).isEqualTo(a.name());
                V1Job job = Await.until(
                                "the Job of team-a/train in " + a.name(),
                                () -> new BatchV1Api(admin)
                                        .listNamespacedJob(a.name())
                                        .labelSelector("quotient.io/job=train")
                                        .execute()
                                        .getItems(),
                                jobs -> jobs.size() == 1)
                        .get(0);
                assertThat(job.getSpec().getTemplate().getSpec().getVolumes())
                        .anySatisfy(v -> assertThat(v.getPersistentVolumeClaim().getClaimName())
                                .isEqualTo("datasets"));
                assertThat(job.getSpec()
                                .getTemplate()
                                .getSpec()
                                .getContainers()
                                .get(0)
                                .getVolumeMounts())
                        .anySatisfy(m -> assertThat(m.getMountPath()).isEqualTo("/data"));
                assertThat(GpuJobObjects.gpuJobs(admin, a.name()))
                        .extracting(o -> o.getMetadata().getName())
                        .containsExactly("train");

                // alice may not deploy for team-b; bob may neither read nor delete team-a's jobs
                QuotientApi.Answer refused = asAlice.deploy("team-b", Requests.wholeGpus("sneaky", 1));
                assertThat(refused.status()).isEqualTo(403);
                assertThat(refused.text("reason"))
                        .contains("may not create gpujobs.quotient.io in namespace " + b.name());
                assertThat(asBob.jobs("team-a").status()).isEqualTo(403);
                assertThat(asBob.job("team-a", "train").status()).isEqualTo(403);
                QuotientApi.Answer bobDeletes = asBob.delete("team-a", "train");
                assertThat(bobDeletes.status()).isEqualTo(403);
                assertThat(bobDeletes.text("reason"))
                        .contains("delete gpujobs.quotient.io 'train' in namespace " + a.name());
                assertThat(asAlice.jobs("team-a").status()).isEqualTo(200);
                hostileSpellingsOfAnotherTeamAreRefused(asAlice, asBob);
                assertThat(GpuJobObjects.gpuJobs(admin, b.name())).isEmpty();
                assertThat(GpuJobObjects.gpuJobs(admin, a.name()))
                        .extracting(o -> o.getMetadata().getName())
                        .containsExactly("train");

                reservedNamesAreRefusedAndNothingIsCreated(asAlice, admin, a.name());
                appliedGpuJobsRunAndTheirStatusIsTheServices(plane, asAlice, alice, admin, a.name());
            }
        }
    }

    /**
     * The spellings with which a team member once created GpuJobs in another team's namespace (the access check
     * matched the raw path, Spring MVC served the decoded team): refused before any decision, with the SA tokens
     * of the real cluster.
     */
    private static void hostileSpellingsOfAnotherTeamAreRefused(QuotientApi asAlice, QuotientApi asBob) {
        for (String team : List.of("team%2Db", "team-%62", "%74eam-b", "team-b;x=1", "team-b;")) {
            QuotientApi.Answer created = asAlice.deploy(team, Requests.wholeGpus("spelt", 1));
            assertThat(created.status()).as("create as %s: %s", team, created).isEqualTo(400);
            assertThat(created.text("field")).isEqualTo("path");
        }
        for (String team : List.of("team%2Da", "team-%61", "%74eam-a", "team-a;x=1", "team-a;")) {
            assertThat(asBob.jobs(team).status()).as("list as %s", team).isEqualTo(400);
            assertThat(asBob.delete(team, "train").status())
                    .as("delete as %s", team)
                    .isEqualTo(400);
        }
    }

    private static void reservedNamesAreRefusedAndNothingIsCreated(QuotientApi api, ApiClient admin, String namespace) {
        Map<String, Object> base = Requests.wholeGpus("escape", 1);
        Map<String, Map<String, Object>> byField = Map.of(
                "env.CUDA_VISIBLE_DEVICES", Requests.with(base, "env", Map.of("CUDA_VISIBLE_DEVICES", "0,1,2,3")),
                "env.RUNAI_GPU_MEMORY_LIMIT", Requests.with(base, "env", Map.of("RUNAI_GPU_MEMORY_LIMIT", "1")),
                "labels.quotient.io/team", Requests.with(base, "labels", Map.of("quotient.io/team", "team-b")),
                "annotations.gpu-fraction", Requests.with(base, "annotations", Map.of("gpu-fraction", "0.1")),
                "image", Requests.with(base, "image", "busybox:1.36\nrm -rf /"));
        byField.forEach((field, body) -> {
            QuotientApi.Answer answer = api.deploy("team-a", body);
            assertThat(answer.status()).as("%s: %s", field, answer).isEqualTo(400);
            assertThat(answer.text("field")).isEqualTo(field);
        });
        assertThat(GpuJobObjects.gpuJobs(admin, namespace))
                .extracting(o -> o.getMetadata().getName())
                .containsExactly("train");
    }

    private static void appliedGpuJobsRunAndTheirStatusIsTheServices(
            ControlPlane plane, QuotientApi api, String token, ApiClient admin, String namespace) throws Exception {
        DynamicKubernetesApi asMember =
                new DynamicKubernetesApi("quotient.io", "v1alpha1", "gpujobs", TeamMembers.client(plane, token));
        // a status written at creation claiming a placement is dropped by the API server (status subresource)
        KubernetesApiResponse<DynamicKubernetesObject> created = asMember.create(GpuJobObjects.gpuJob(
                namespace,
                "applied",
                "{\"image\": \"busybox:1.36\", \"command\": [\"sleep\", \"3600\"], \"gpu\": {\"count\": 1}}",
                "{\"phase\": \"Running\", \"node\": \"made-up\"}"));
        assertThat(created.isSuccess()).as("%s", created.getStatus()).isTrue();
        JsonObject status = Await.until(
                "the applied GpuJob to be placed by the service",
                () -> asMember.get(namespace, "applied").getObject().getRaw().getAsJsonObject("status"),
                s -> s != null
                        && s.has("phase")
                        && List.of("Placed", "Running").contains(s.get("phase").getAsString()));
        assertThat(status.get("node").getAsString()).isNotEqualTo("made-up");
        assertThat(api.job("team-a", "applied").text("phase")).isIn("Placed", "Running");
        Await.until(
                "the applied GpuJob's Job",
                () -> new BatchV1Api(admin)
                        .listNamespacedJob(namespace)
                        .labelSelector("quotient.io/job=applied")
                        .execute()
                        .getItems(),
                jobs -> jobs.size() == 1);

        // the team's user cannot write the status (no gpujobs/status permission), nor change the spec
        KubernetesApiResponse<DynamicKubernetesObject> patched = asMember.patch(
                namespace,
                "applied",
                V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
                new V1Patch("{\"status\": {\"phase\": \"Succeeded\"}}"));
        assertThat(patched.isSuccess()).isFalse();
        assertThat(patched.getHttpStatusCode()).isEqualTo(403);
        JsonObject claimed =
                asMember.get(namespace, "applied").getObject().getRaw().deepCopy();
        claimed.getAsJsonObject("status").addProperty("phase", "Succeeded");
        try {
            new CustomObjectsApi(TeamMembers.client(plane, token))
                    .replaceNamespacedCustomObjectStatus(
                            "quotient.io", "v1alpha1", namespace, "gpujobs", "applied", claimed)
                    .execute();
            throw new AssertionError("a team member wrote the status of a GpuJob");
        } catch (ApiException e) {
            assertThat(e.getCode()).as("%s", e.getResponseBody()).isEqualTo(403);
            assertThat(e.getResponseBody()).contains("gpujobs/status");
        }

        // an invalid GpuJob is refused with the REST message, and nothing is deployed for it
        assertThat(asMember.create(GpuJobObjects.gpuJob(
                                namespace,
                                "bad-limit",
                                "{\"image\": \"busybox:1.36\", \"gpu\": {\"fraction\": 0.5, \"fractionLimit\": 0.3}}",
                                null))
                        .isSuccess())
                .isTrue();
        JsonObject failed = Await.until(
                "the invalid GpuJob to be marked Failed",
                () -> asMember.get(namespace, "bad-limit").getObject().getRaw().getAsJsonObject("status"),
                s -> s != null && s.has("phase"));
        assertThat(failed.get("phase").getAsString()).isEqualTo("Failed");
        assertThat(failed.get("reason").getAsString())
                .contains("gpu.fractionLimit: (0.3) must not be below gpu.fraction (0.5)");
        assertThat(new BatchV1Api(admin)
                        .listNamespacedJob(namespace)
                        .labelSelector("quotient.io/job=bad-limit")
                        .execute()
                        .getItems())
                .isEmpty();

        // kubectl delete gpujob stops the job: its Job goes, its GPU is free again
        assertThat(asMember.delete(namespace, "applied").isSuccess()).isTrue();
        Await.until(
                "the applied job's Job to be gone",
                () -> new BatchV1Api(admin)
                                .listNamespacedJob(namespace)
                                .labelSelector("quotient.io/job=applied")
                                .execute()
                                .getItems()
                                .stream()
                                .filter(j -> j.getMetadata().getDeletionTimestamp() == null)
                                .toList(),
                List::isEmpty);
        Await.until(
                "team-a to hold only train's GPU",
                () -> api.team("team-a").get("allocatedGpus").getAsDouble(),
                gpus -> gpus == 1.0);
    }
}
