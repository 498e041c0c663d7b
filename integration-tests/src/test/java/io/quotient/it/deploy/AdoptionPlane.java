package io.quotient.it.deploy;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.TestNamespace;
import java.nio.file.Path;

/**
 * The set-up the adoption tests share: the GpuJob CRD and a webhook certificate, the workload APIs they create
 * through with the user's client, and {@link #serve}: a team namespace opted in to the workload webhooks, the
 * webhooks registered and the service serving them.
 */
final class AdoptionPlane {

    final ApiClient user;
    final WebhookTls tls;
    final DynamicKubernetesApi pytorchJobs;
    final DynamicKubernetesApi trainJobs;
    final DynamicKubernetesApi gpuJobs;
    private final ControlPlane plane;
    private final Path dir;

    private AdoptionPlane(ControlPlane plane, Path dir, WebhookTls tls) {
        this.plane = plane;
        this.dir = dir;
        this.tls = tls;
        this.user = plane.apiClient();
        this.pytorchJobs = new DynamicKubernetesApi("kubeflow.org", "v1", "pytorchjobs", user);
        this.trainJobs = new DynamicKubernetesApi("trainer.kubeflow.org", "v1alpha1", "trainjobs", user);
        this.gpuJobs = new DynamicKubernetesApi("quotient.io", "v1alpha1", "gpujobs", user);
    }

    /** Installs the GpuJob CRD and makes the webhooks' certificate in {@code dir}. */
    static AdoptionPlane prepare(ControlPlane plane, Path dir) throws Exception {
        QuotientManifests.installCrd(plane.apiClient());
        return new AdoptionPlane(plane, dir, WebhookTls.make(dir));
    }

    /** The teams file with this text, beside the certificate. */
    Path teams(String yaml) {
        return TeamsFile.writeText(dir.resolve("teams.yaml"), yaml);
    }

    /** Opts {@code team} in, writes the teams file, registers the webhooks and starts the service serving them. */
    Serving serve(TestNamespace service, TestNamespace team, String teamsYaml) throws Exception {
        WorkloadWebhooks.optIn(user, team.name());
        Path teams = teams(teamsYaml);
        WorkloadWebhooks webhooks = WorkloadWebhooks.register(user, tls.port(), tls.caBundle());
        try {
            return new Serving(webhooks, QuotientService.inProcess(plane, service.name(), teams, tls.args()));
        } catch (RuntimeException | Error e) {
            webhooks.close();
            throw e;
        }
    }

    /** The workload webhooks and the service that serves them; closing stops the service, then unregisters them. */
    record Serving(WorkloadWebhooks webhooks, QuotientService quotient) implements AutoCloseable {

        @Override
        public void close() {
            try {
                quotient.close();
            } finally {
                webhooks.close();
            }
        }
    }
}
