package io.quotient.adapters.k8s.webhook;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.quotient.adapters.k8s.KubernetesCallException;
import io.quotient.adapters.tls.ServingCertificate;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admission webhook's certificate, shared by every replica through one TLS Secret: the first replica to start
 * issues it and creates the Secret; the others (and later starts) read it, so the webhooks' single {@code caBundle}
 * verifies whichever replica the API server reaches. Two replicas starting at once race on the create; the loser
 * reads the winner's. A stored certificate that cannot serve (another name, near its end, broken) is renewed in
 * place, guarded by the Secret's resourceVersion, and its old CA stays in the bundle while it is valid.
 */
public final class WebhookCertificateSecret {

    static final String CA_BUNDLE = "ca.crt";
    static final String CERTIFICATE = "tls.crt";
    static final String PRIVATE_KEY = "tls.key";
    private static final int ATTEMPTS = 3;
    private static final Logger LOG = LoggerFactory.getLogger(WebhookCertificateSecret.class);

    private final CoreV1Api core;
    private final String namespace;
    private final String name;
    private final Clock clock;

    public WebhookCertificateSecret(ApiClient client, String namespace, String name, Clock clock) {
        this.core = new CoreV1Api(client);
        this.namespace = namespace;
        this.name = name;
        this.clock = clock;
    }

    /**
     * The stored certificate when it serves {@code subjectNames} for at least {@code renewBefore}; otherwise one from
     * {@code issue}, stored first.
     */
    public ServingCertificate obtain(
            List<String> subjectNames, Duration renewBefore, Supplier<ServingCertificate> issue) {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            Optional<V1Secret> secret = read();
            if (secret.isEmpty()) {
                ServingCertificate issued = issue.get();
                if (create(issued)) {
                    LOG.info(
                            "admission webhook: issued a certificate for {} and stored it in Secret {}/{}",
                            subjectNames,
                            namespace,
                            name);
                    return issued;
                }
                continue; // another replica created it first: use theirs
            }
            Optional<ServingCertificate> stored = certificateIn(secret.get());
            Optional<String> unusable = stored.isEmpty()
                    ? Optional.of("it lacks " + CA_BUNDLE + ", " + CERTIFICATE + " or " + PRIVATE_KEY)
                    : stored.get().unusableBecause(subjectNames, clock.instant(), renewBefore);
            if (unusable.isEmpty()) {
                LOG.info("admission webhook: using the certificate stored in Secret {}/{}", namespace, name);
                return stored.get();
            }
            ServingCertificate renewed = stored.map(
                            old -> issue.get().trustingAlso(authoritiesOf(old), clock.instant()))
                    .orElseGet(issue);
            if (replace(secret.get(), renewed)) {
                LOG.info(
                        "admission webhook: renewed the certificate in Secret {}/{} because {}",
                        namespace,
                        name,
                        unusable.get());
                return renewed;
            }
        }
        throw new IllegalStateException("the admission webhook's certificate Secret " + namespace + "/" + name
                + " kept changing while this replica tried to read or store it (" + ATTEMPTS + " attempts); restart"
                + " the replica, or delete the Secret to have a new certificate issued");
    }

    private Optional<V1Secret> read() {
        try {
            return Optional.of(core.readNamespacedSecret(name, namespace).execute());
        } catch (ApiException e) {
            if (e.getCode() == 404) {
                return Optional.empty();
            }
            throw failure("reading", e);
        }
    }

    /** Creates the Secret; false when it exists already. */
    private boolean create(ServingCertificate certificate) {
        V1Secret secret = new V1Secret()
                .type("kubernetes.io/tls")
                .metadata(new V1ObjectMeta()
                        .name(name)
                        .namespace(namespace)
                        .labels(Map.of(
                                "app.kubernetes.io/name", "quotient", "app.kubernetes.io/managed-by", "quotient")));
        try {
            core.createNamespacedSecret(namespace, withData(secret, certificate))
                    .execute();
            return true;
        } catch (ApiException e) {
            if (e.getCode() == 409) {
                return false;
            }
            throw failure("creating", e);
        }
    }

    /** Replaces the Secret's data if nobody changed it since it was read; false when somebody did. */
    private boolean replace(V1Secret read, ServingCertificate certificate) {
        try {
            core.replaceNamespacedSecret(name, namespace, withData(read, certificate))
                    .execute();
            return true;
        } catch (ApiException e) {
            if (e.getCode() == 409) {
                return false;
            }
            throw failure("renewing the certificate in", e);
        }
    }

    private static V1Secret withData(V1Secret secret, ServingCertificate certificate) {
        return secret.data(Map.of(
                CA_BUNDLE,
                bytes(certificate.caBundlePem()),
                CERTIFICATE,
                bytes(certificate.certificatePem()),
                PRIVATE_KEY,
                bytes(certificate.privateKeyPem())));
    }

    private static Optional<ServingCertificate> certificateIn(V1Secret secret) {
        Map<String, byte[]> data = secret.getData() == null ? Map.of() : secret.getData();
        if (!data.containsKey(CA_BUNDLE) || !data.containsKey(CERTIFICATE) || !data.containsKey(PRIVATE_KEY)) {
            return Optional.empty();
        }
        return Optional.of(new ServingCertificate(
                text(data.get(CA_BUNDLE)), text(data.get(CERTIFICATE)), text(data.get(PRIVATE_KEY))));
    }

    private static List<X509Certificate> authoritiesOf(ServingCertificate old) {
        try {
            return old.authorities();
        } catch (IllegalArgumentException unreadable) {
            return List.of();
        }
    }

    private KubernetesCallException failure(String what, ApiException e) {
        return new KubernetesCallException(
                what + " the admission webhook's certificate Secret " + namespace + "/"
                        + name + " failed: HTTP " + e.getCode() + " " + e.getResponseBody()
                        + "; the service account needs get,"
                        + " create and update on secrets in " + namespace + " (deploy/20-rbac.yaml)",
                e.getCode());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
