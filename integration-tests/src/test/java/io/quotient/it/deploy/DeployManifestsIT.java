package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.AuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import io.kubernetes.client.openapi.models.V1SubjectAccessReview;
import io.kubernetes.client.openapi.models.V1SubjectAccessReviewSpec;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl apply -f deploy/} on the real 1.20 control plane: every manifest is accepted, the GpuJob CRD is
 * structural and validates records, and the service account may do what the service does, and nothing more.
 */
@RealKubernetes
class DeployManifestsIT {

    private static final String SERVICE_ACCOUNT = "system:serviceaccount:quotient-system:quotient";
    private static List<DynamicKubernetesObject> applied;

    @BeforeAll
    static void applyAll(ApiClient client) {
        applied = QuotientManifests.apply(client, QuotientManifests.allFiles());
    }

    /** The service's pods would never run here (no image, fake nodes): remove the workloads, keep the rest. */
    @AfterAll
    static void removeWorkloads(ApiClient client) throws Exception {
        AppsV1Api apps = new AppsV1Api(client);
        for (DynamicKubernetesObject object : applied) {
            String name = object.getMetadata().getName();
            String ns = object.getMetadata().getNamespace();
            if ("Deployment".equals(object.getKind())) {
                apps.deleteNamespacedDeployment(name, ns).execute();
            } else if ("DaemonSet".equals(object.getKind())) {
                apps.deleteNamespacedDaemonSet(name, ns).execute();
            }
        }
    }

    @Test
    void everyManifestIsAcceptedAndTheServiceRunsTwoReplicas(ApiClient client) throws Exception {
        assertThat(applied)
                .extracting(DynamicKubernetesObject::getKind)
                .contains(
                        "Namespace",
                        "CustomResourceDefinition",
                        "ServiceAccount",
                        "ClusterRole",
                        "Role",
                        "RoleBinding",
                        "ConfigMap",
                        "Deployment",
                        "Service");
        var deployment = new AppsV1Api(client)
                .readNamespacedDeployment("quotient", "quotient-system")
                .execute();
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
        assertThat(deployment.getSpec().getTemplate().getSpec().getServiceAccountName())
                .isEqualTo("quotient");
    }

    @Test
    void crdIsStructuralAndValidatesRecords(ApiClient client, TestNamespace namespace) {
        DynamicKubernetesApi crds =
                new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions", client);
        String crd = crds.get("gpujobs.quotient.io").getObject().getRaw().toString();
        assertThat(crd).contains("\"type\":\"Established\",\"status\":\"True\"").doesNotContain("NonStructuralSchema");

        DynamicKubernetesApi gpuJobs = new DynamicKubernetesApi("quotient.io", "v1alpha1", "gpujobs", client);
        KubernetesApiResponse<DynamicKubernetesObject> good = gpuJobs.create(gpuJob(namespace.name(), "good", 2));
        assertThat(good.isSuccess())
                .as("a valid GpuJob is accepted: %s", good.getStatus())
                .isTrue();
        JsonObject wrongType = gpuJob(namespace.name(), "wrong-type", 1).getRaw();
        wrongType.getAsJsonObject("spec").getAsJsonObject("gpu").addProperty("count", "three");
        KubernetesApiResponse<DynamicKubernetesObject> rejected =
                gpuJobs.create(new DynamicKubernetesObject(wrongType));
        assertThat(rejected.getHttpStatusCode()).isEqualTo(422);
        assertThat(rejected.getStatus().getMessage()).contains("spec.gpu.count");
    }

    @Test
    void serviceAccountMayDoWhatTheServiceDoesAndNothingMore(ApiClient client) throws Exception {
        AuthorizationV1Api authorization = new AuthorizationV1Api(client);
        String ns = "quotient-system";
        assertThat(allowed(authorization, "", "nodes", "", "watch", null, null)).isTrue();
        assertThat(allowed(authorization, "quotient.io", "gpujobs", "", "create", ns, null))
                .isTrue();
        assertThat(allowed(authorization, "quotient.io", "gpujobs", "status", "update", ns, null))
                .isTrue();
        // in the teams' namespaces too: records, their status, the workloads, Events
        assertThat(allowed(authorization, "quotient.io", "gpujobs", "", "create", "team-a", null))
                .isTrue();
        assertThat(allowed(authorization, "quotient.io", "gpujobs", "status", "update", "team-a", null))
                .isTrue();
        assertThat(allowed(authorization, "batch", "jobs", "", "create", "team-a", null))
                .isTrue();
        assertThat(allowed(authorization, "trainer.kubeflow.org", "trainjobs", "", "create", "team-a", null))
                .isTrue();
        assertThat(allowed(authorization, "trainer.kubeflow.org", "trainjobs", "", "delete", "team-a", null))
                .isTrue();
        // workloads created with kubectl are adopted: listed cluster-wide by label, placed and suspended by patches
        for (String[] kind : new String[][] {
            {"batch", "jobs"}, {"kubeflow.org", "pytorchjobs"}, {"trainer.kubeflow.org", "trainjobs"}
        }) {
            assertThat(allowed(authorization, kind[0], kind[1], "", "patch", "team-a", null))
                    .as(kind[1])
                    .isTrue();
            assertThat(allowed(authorization, kind[0], kind[1], "", "list", null, null))
                    .as(kind[1])
                    .isTrue();
        }
        assertThat(allowed(authorization, "", "events", "", "create", "team-a", null))
                .isTrue();
        // the dashboard's recent history reads the Events of GpuJobs in every namespace
        assertThat(allowed(authorization, "", "events", "", "list", null, null)).isTrue();
        assertThat(allowed(authorization, "authentication.k8s.io", "tokenreviews", "", "create", null, null))
                .isTrue();
        assertThat(allowed(authorization, "authorization.k8s.io", "subjectaccessreviews", "", "create", null, null))
                .isTrue();
        assertThat(allowed(authorization, "batch", "jobs", "", "create", ns, null))
                .isTrue();
        assertThat(allowed(authorization, "", "pods", "", "delete", ns, null)).isTrue();
        assertThat(allowed(authorization, "", "events", "", "create", ns, null)).isTrue();
        assertThat(allowed(authorization, "coordination.k8s.io", "leases", "", "update", ns, "quotient-leader"))
                .isTrue();
        assertThat(allowed(authorization, "", "configmaps", "", "get", ns, "quotient-teams"))
                .isTrue();
        // the admission webhooks' certificate: one Secret in its namespace, and the caBundle of its two webhooks
        assertThat(allowed(authorization, "", "secrets", "", "create", ns, null))
                .isTrue();
        assertThat(allowed(authorization, "", "secrets", "", "get", ns, "quotient-webhook-tls"))
                .isTrue();
        assertThat(allowed(authorization, "", "secrets", "", "update", ns, "quotient-webhook-tls"))
                .isTrue();
        for (String configurations : List.of("mutatingwebhookconfigurations", "validatingwebhookconfigurations")) {
            assertThat(allowed(
                            authorization,
                            "admissionregistration.k8s.io",
                            configurations,
                            "",
                            "patch",
                            null,
                            "quotient-workloads"))
                    .as(configurations)
                    .isTrue();
            assertThat(allowed(
                            authorization,
                            "admissionregistration.k8s.io",
                            configurations,
                            "",
                            "patch",
                            null,
                            "another-webhook"))
                    .as(configurations)
                    .isFalse();
        }

        // the service never changes a spec
        assertThat(allowed(authorization, "quotient.io", "gpujobs", "", "patch", ns, null))
                .isFalse();
        assertThat(allowed(authorization, "quotient.io", "gpujobs", "", "update", "team-a", null))
                .isFalse();
        assertThat(allowed(authorization, "", "secrets", "", "get", "team-a", null))
                .isFalse();
        // the runtimes are the cluster admin's: Quotient references them, never writes them
        assertThat(allowed(authorization, "trainer.kubeflow.org", "clustertrainingruntimes", "", "create", null, null))
                .isFalse();
        assertThat(allowed(authorization, "", "nodes", "", "update", null, null))
                .isFalse();
        assertThat(allowed(authorization, "", "secrets", "", "get", ns, null)).isFalse();
        assertThat(allowed(authorization, "", "secrets", "", "get", ns, "another-secret"))
                .isFalse();
        assertThat(allowed(authorization, "", "secrets", "", "update", "team-a", "quotient-webhook-tls"))
                .isFalse();
        assertThat(allowed(authorization, "", "configmaps", "", "get", ns, "other"))
                .isFalse();
        assertThat(allowed(authorization, "coordination.k8s.io", "leases", "", "update", ns, "other-lease"))
                .isFalse();
    }

    private static boolean allowed(
            AuthorizationV1Api api,
            String group,
            String resource,
            String subresource,
            String verb,
            String namespace,
            String name)
            throws Exception {
        V1SubjectAccessReview review = new V1SubjectAccessReview()
                .spec(new V1SubjectAccessReviewSpec()
                        .user(SERVICE_ACCOUNT)
                        .groups(List.of(
                                "system:serviceaccounts",
                                "system:serviceaccounts:quotient-system",
                                "system:authenticated"))
                        .resourceAttributes(new V1ResourceAttributes()
                                .group(group)
                                .resource(resource)
                                .subresource(subresource)
                                .verb(verb)
                                .namespace(namespace)
                                .name(name)));
        return api.createSubjectAccessReview(review).execute().getStatus().getAllowed();
    }

    private static DynamicKubernetesObject gpuJob(String namespace, String name, int gpus) {
        JsonObject json = new Gson().fromJson("""
                {"apiVersion": "quotient.io/v1alpha1", "kind": "GpuJob",
                 "metadata": {"name": "%s", "namespace": "%s"},
                 "spec": {"team": "team-a", "name": "%s", "template": "job", "image": "busybox",
                          "command": ["sleep", "1"], "gpu": {"count": %d}, "gpuModels": ["A100"],
                          "cpuMilli": 500, "memoryMib": 256, "priority": 1, "preemptible": true,
                          "minRuntimeSeconds": 0, "labels": {"a": "b"}, "env": {"X": "1"}}}
                """.formatted(name, namespace, name, gpus), JsonObject.class);
        return new DynamicKubernetesObject(json);
    }
}
