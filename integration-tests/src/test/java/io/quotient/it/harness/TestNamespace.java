package io.quotient.it.harness;

import static io.quotient.it.harness.KubeCalls.call;
import static io.quotient.it.harness.KubeCalls.deleteIgnoringMissing;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import java.util.Map;

/**
 * A namespace of one test, created fresh and deleted when the test ends (pods in it are removed at once,
 * since no real kubelet would ever finish their graceful deletion).
 */
public final class TestNamespace implements AutoCloseable {

    /** Before 1.24 the ServiceAccount admission rejects pods until the default account holds a token secret. */
    private static final int LAST_MINOR_WITH_TOKEN_SECRETS = 23;

    private final CoreV1Api api;
    private final String name;

    private TestNamespace(CoreV1Api api, String name) {
        this.api = api;
        this.name = name;
    }

    /** Creates {@code <prefix>-<random>} and waits until pods can be created in it. */
    public static TestNamespace create(ApiClient client, int serverMinorVersion, String prefix) {
        CoreV1Api api = new CoreV1Api(client);
        String name = RandomNames.withSuffix(RandomNames.dnsLabel(prefix));
        V1Namespace namespace = new V1Namespace()
                .metadata(new V1ObjectMeta().name(name).labels(Map.of(Conventions.TEST_NAMESPACE_LABEL, "true")));
        call(
                "creating test namespace " + name,
                () -> api.createNamespace(namespace).execute());
        boolean needsTokenSecret = serverMinorVersion <= LAST_MINOR_WITH_TOKEN_SECRETS;
        Await.until(
                "the default service account of namespace " + name + " (made by the controller-manager)",
                () -> api.readNamespacedServiceAccount("default", name).execute(),
                (V1ServiceAccount account) -> !needsTokenSecret
                        || (account.getSecrets() != null
                                && !account.getSecrets().isEmpty()));
        return new TestNamespace(api, name);
    }

    public String name() {
        return name;
    }

    /** Removes the pods at once (grace 0), then asks for the namespace's deletion without waiting for it. */
    @Override
    public void close() {
        delete(api, name);
    }

    /** Also used for namespaces that a killed run left behind ({@link Leftovers}). */
    static void delete(CoreV1Api api, String name) {
        deleteIgnoringMissing(
                "deleting the pods of test namespace " + name,
                () -> api.deleteCollectionNamespacedPod(name)
                        .gracePeriodSeconds(0)
                        .buildCall(null));
        deleteIgnoringMissing(
                "deleting test namespace " + name,
                () -> api.deleteNamespace(name).buildCall(null));
    }

    @Override
    public String toString() {
        return name;
    }
}
