package io.quotient.it.deploy;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AdmissionregistrationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.AdmissionregistrationV1WebhookClientConfig;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import io.kubernetes.client.util.Yaml;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.util.List;

/**
 * Registers the shipped {@code deploy/admission/workload-webhook.yaml} on the test plane with one change: the API
 * server reaches the service in this JVM by URL (the plane has no Service network), with the test's CA as caBundle (or
 * none, as shipped, for a service that issues its certificate and sets the caBundle itself).
 * Rules, selectors, failure policy and paths are the manifest's own.
 */
public final class WorkloadWebhooks implements AutoCloseable {

    private final AdmissionregistrationV1Api api;
    private final String name;

    private WorkloadWebhooks(ApiClient client, String name) {
        this.api = new AdmissionregistrationV1Api(client);
        this.name = name;
    }

    /** {@code caBundle} null: left out, as in the shipped file (the service sets it). */
    public static WorkloadWebhooks register(ApiClient client, int port, byte[] caBundle)
            throws IOException, ApiException {
        List<Object> documents;
        try (Reader reader =
                Files.newBufferedReader(QuotientManifests.deployDir().resolve("admission/workload-webhook.yaml"))) {
            documents = Yaml.loadAll(reader);
        }
        V1MutatingWebhookConfiguration mutating = (V1MutatingWebhookConfiguration) documents.get(0);
        V1ValidatingWebhookConfiguration validating = (V1ValidatingWebhookConfiguration) documents.get(1);
        mutating.getWebhooks().forEach(w -> w.clientConfig(byUrl(w.getClientConfig(), port, caBundle)));
        validating.getWebhooks().forEach(w -> w.clientConfig(byUrl(w.getClientConfig(), port, caBundle)));
        WorkloadWebhooks webhooks =
                new WorkloadWebhooks(client, mutating.getMetadata().getName());
        webhooks.close();
        webhooks.api.createMutatingWebhookConfiguration(mutating).execute();
        webhooks.api.createValidatingWebhookConfiguration(validating).execute();
        return webhooks;
    }

    private static AdmissionregistrationV1WebhookClientConfig byUrl(
            AdmissionregistrationV1WebhookClientConfig shipped, int port, byte[] caBundle) {
        return new AdmissionregistrationV1WebhookClientConfig()
                .url("https://127.0.0.1:" + port + shipped.getService().getPath())
                .caBundle(caBundle);
    }

    /** The caBundle the API server holds now for the mutating webhook (null: none). */
    byte[] mutatingCaBundle() throws ApiException {
        return api.readMutatingWebhookConfiguration(name)
                .execute()
                .getWebhooks()
                .get(0)
                .getClientConfig()
                .getCaBundle();
    }

    /** Replaces the mutating webhook's caBundle, as a re-apply of another file or a careless edit would. */
    void replaceMutatingCaBundle(byte[] caBundle) throws ApiException {
        V1MutatingWebhookConfiguration live =
                api.readMutatingWebhookConfiguration(name).execute();
        live.getWebhooks().forEach(w -> w.getClientConfig().caBundle(caBundle));
        api.replaceMutatingWebhookConfiguration(name, live).execute();
    }

    /** Opts a namespace in to the webhooks (the label their namespaceSelector asks for), as a team's admin would. */
    public static void optIn(ApiClient client, String namespace) throws ApiException {
        CoreV1Api core = new CoreV1Api(client);
        V1Namespace labelled = core.readNamespace(namespace).execute();
        labelled.getMetadata().putLabelsItem("quotient.io/admission", "enabled");
        core.replaceNamespace(namespace, labelled).execute();
    }

    /** Removes both configurations (nothing when they are gone). */
    @Override
    public void close() {
        try {
            api.deleteMutatingWebhookConfiguration(name).execute();
        } catch (ApiException e) {
            ignoreMissing(e);
        }
        try {
            api.deleteValidatingWebhookConfiguration(name).execute();
        } catch (ApiException e) {
            ignoreMissing(e);
        }
    }

    private static void ignoreMissing(ApiException e) {
        if (e.getCode() != 404) {
            throw new IllegalStateException(
                    "removing the workload webhooks failed: HTTP " + e.getCode() + " " + e.getResponseBody(), e);
        }
    }
}
