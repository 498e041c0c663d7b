package io.quotient.adapters.k8s.webhook;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfigurationList;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfigurationList;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.quotient.adapters.k8s.KubernetesCallException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts the service's CA into the {@code caBundle} of its webhook configurations (mutating and validating, by name),
 * so the API server trusts the certificate the service issued itself. Only webhooks whose bundle differs are
 * patched, each with a JSON patch that first tests the webhook's name at that index (a configuration re-applied
 * meanwhile with another order fails the patch instead of getting the bundle on the wrong webhook; the next round
 * retries). Configurations that do not exist (not applied yet, or not used) are skipped.
 */
public final class CaBundleInjector {

    private static final Logger LOG = LoggerFactory.getLogger(CaBundleInjector.class);
    private static final String GROUP = "admissionregistration.k8s.io";

    /** One webhook of a configuration: its name and current bundle. */
    private record Webhook(String name, byte[] caBundle) {}

    private final GenericKubernetesApi<V1MutatingWebhookConfiguration, V1MutatingWebhookConfigurationList> mutating;
    private final GenericKubernetesApi<V1ValidatingWebhookConfiguration, V1ValidatingWebhookConfigurationList>
            validating;

    public CaBundleInjector(ApiClient client) {
        this.mutating = new GenericKubernetesApi<>(
                V1MutatingWebhookConfiguration.class,
                V1MutatingWebhookConfigurationList.class,
                GROUP,
                "v1",
                "mutatingwebhookconfigurations",
                client);
        this.validating = new GenericKubernetesApi<>(
                V1ValidatingWebhookConfiguration.class,
                V1ValidatingWebhookConfigurationList.class,
                GROUP,
                "v1",
                "validatingwebhookconfigurations",
                client);
    }

    /** Sets {@code caBundle} on every webhook of the named configurations; returns how many webhooks changed. */
    public int inject(List<String> configurationNames, byte[] caBundle) {
        int changed = 0;
        for (String name : configurationNames) {
            changed += inject(
                    mutating,
                    "MutatingWebhookConfiguration",
                    name,
                    caBundle,
                    c -> c.getWebhooks() == null
                            ? List.of()
                            : c.getWebhooks().stream()
                                    .map(w -> new Webhook(
                                            w.getName(), w.getClientConfig().getCaBundle()))
                                    .toList());
            changed += inject(
                    validating,
                    "ValidatingWebhookConfiguration",
                    name,
                    caBundle,
                    c -> c.getWebhooks() == null
                            ? List.of()
                            : c.getWebhooks().stream()
                                    .map(w -> new Webhook(
                                            w.getName(), w.getClientConfig().getCaBundle()))
                                    .toList());
        }
        return changed;
    }

    private static <T extends KubernetesObject> int inject(
            GenericKubernetesApi<T, ?> api,
            String kind,
            String name,
            byte[] caBundle,
            Function<T, List<Webhook>> webhooks) {
        KubernetesApiResponse<T> read = api.get(name);
        if (read.getHttpStatusCode() == 404) {
            return 0;
        }
        if (!read.isSuccess()) {
            throw failure("reading", kind, name, read);
        }
        List<Webhook> found = webhooks.apply(read.getObject());
        JsonArray patch = new JsonArray();
        List<String> patched = new ArrayList<>();
        for (int index = 0; index < found.size(); index++) {
            Webhook webhook = found.get(index);
            if (!Arrays.equals(webhook.caBundle(), caBundle)) {
                patch.add(operation("test", "/webhooks/" + index + "/name", webhook.name()));
                patch.add(operation(
                        "add",
                        "/webhooks/" + index + "/clientConfig/caBundle",
                        Base64.getEncoder().encodeToString(caBundle)));
                patched.add(webhook.name());
            }
        }
        if (patched.isEmpty()) {
            return 0;
        }
        KubernetesApiResponse<T> response =
                api.patch(name, V1Patch.PATCH_FORMAT_JSON_PATCH, new V1Patch(patch.toString()));
        if (!response.isSuccess()) {
            throw failure("patching the caBundle of", kind, name, response);
        }
        LOG.info("admission webhook: caBundle of {} {} set to the service's CA for {}", kind, name, patched);
        return patched.size();
    }

    private static JsonObject operation(String op, String path, String value) {
        JsonObject operation = new JsonObject();
        operation.addProperty("op", op);
        operation.addProperty("path", path);
        operation.addProperty("value", value);
        return operation;
    }

    private static KubernetesCallException failure(
            String what, String kind, String name, KubernetesApiResponse<?> response) {
        String reason = response.getStatus() == null
                ? "no reason given"
                : response.getStatus().getMessage();
        return new KubernetesCallException(
                what + " " + kind + " " + name + " failed: HTTP "
                        + response.getHttpStatusCode() + ": " + reason + "; the service account needs get and patch on "
                        + kind.toLowerCase(Locale.ROOT) + "s named " + name + " (deploy/20-rbac.yaml)",
                response.getHttpStatusCode());
    }
}
