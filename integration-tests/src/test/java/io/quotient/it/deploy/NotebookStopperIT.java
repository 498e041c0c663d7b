package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.adapters.k8s.adoption.KubernetesNotebookStopper;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.request.JobRequestInput;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.NotebookStopper;
import io.quotient.deploy.port.WorkloadRef;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import io.quotient.it.kubeflow.FakeNotebookController;
import io.quotient.it.kubeflow.KubeflowCrds;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The idle policy's way of stopping a Kubeflow Notebook, on a real API server with the Notebook CRD and the fake
 * notebook controller: {@link KubernetesNotebookStopper} sets {@code kubeflow-resource-stopped} (RFC 3339) on the
 * Notebook whose pod the job governs, the controller scales its StatefulSet to zero, and the Notebook itself stays
 * (nothing deleted). A job whose pod belongs to no Notebook changes nothing.
 */
@RealKubernetes
class NotebookStopperIT {

    @Test
    void theNotebookOfAnIdleJobsPodIsStoppedTheKubeflowWayAndKept(ControlPlane plane) throws Exception {
        ApiClient client = plane.apiClient();
        KubeflowCrds.install(client);
        DynamicKubernetesApi notebooks = new DynamicKubernetesApi("kubeflow.org", "v1", "notebooks", client);
        DynamicKubernetesApi statefulSets = new DynamicKubernetesApi("apps", "v1", "statefulsets", client);
        try (TestNamespace team = TestNamespace.create(client, plane.serverMinorVersion(), "team-idle");
                FakeNotebookController controller = FakeNotebookController.start(client, team.name())) {
            String ns = team.name();
            JsonObject container = new JsonObject();
            container.addProperty("name", "notebook");
            container.addProperty("image", "busybox:1.36");
            KubernetesApiResponse<DynamicKubernetesObject> created = notebooks.create(
                    new DynamicKubernetesObject(ForeignWorkloads.notebook(ns, "lab", Map.of(), container)));
            assertThat(created.isSuccess())
                    .as("HTTP %s", created.getHttpStatusCode())
                    .isTrue();
            Await.until(
                    "the controller to create the Notebook's StatefulSet",
                    () -> Notebooks.replicas(statefulSets, ns, "lab"),
                    r -> r == 1);

            Instant at = Instant.parse("2026-12-02T10:00:00.123Z");
            NotebookStopper stopper = new KubernetesNotebookStopper(client);
            assertThat(stopper.stop(podJob(ns, "lab-0"), at)).isTrue();

            JsonObject notebook = notebooks.get(ns, "lab").getObject().getRaw();
            assertThat(notebook.getAsJsonObject("metadata")
                            .getAsJsonObject("annotations")
                            .get(NotebookStopper.STOPPED_ANNOTATION)
                            .getAsString())
                    .isEqualTo("2026-12-02T10:00:00Z");
            Await.until(
                    "the controller to scale the stopped Notebook to zero",
                    () -> Notebooks.replicas(statefulSets, ns, "lab"),
                    r -> r == 0);
            assertThat(notebooks.get(ns, "lab").isSuccess())
                    .as("the Notebook is kept")
                    .isTrue();
            assertThat(controller.lastFailure()).isNull();

            assertThat(stopper.stop(podJob(ns, "nobody-0"), at))
                    .as("no Notebook of that name")
                    .isFalse();
            assertThat(stopper.stop(podJob(ns, "bare"), at))
                    .as("a bare pod has no Notebook")
                    .isFalse();
        }
    }

    /** The record of a job governing pod {@code pod} in {@code ns}, adopted at the pod's admission. */
    private static JobRecord podJob(String ns, String pod) {
        JobRequestInput request = JobRequestInput.of("team-idle", pod).withKind("notebook");
        JobSpec spec = new JobSpec(
                new JobId("team-idle", pod), new GpuRequest.WholeGpus(1), 0, 0, Set.of(), 0, false, Duration.ZERO);
        return new JobRecord(
                JobSubmission.governing(request, ns, WorkloadRef.pod(pod)),
                spec,
                JobStatus.undecided(),
                Instant.EPOCH,
                null);
    }
}
