package io.quotient.app;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The HTTPS port the API server calls Quotient's admission webhooks on ({@code quotient.admission.*}).
 *
 * @param port                  HTTPS port of the webhooks; unset: no webhook
 * @param tlsCertFile           PEM certificate (chain) from a mounted TLS Secret (e.g. cert-manager's); with
 *                              {@code tlsKeyFile}. Both unset: the service issues its own certificate
 * @param tlsKeyFile            its PEM private key
 * @param serviceName           the Service the webhooks call (the issued certificate names
 *                              {@code NAME.NAMESPACE.svc} and its other forms)
 * @param certificateSecret     where an issued certificate is kept, shared by the replicas (in the service's namespace)
 * @param webhookConfigurations the Mutating/ValidatingWebhookConfigurations whose {@code caBundle} the service sets
 *                              to the CA of an issued certificate
 * @param extraSubjectNames     more DNS names or IP addresses for an issued certificate (e.g. 127.0.0.1 when the
 *                              webhooks are registered by URL)
 * @param caBundleCheck         how often the {@code caBundle}s are checked and set again (a configuration applied
 *                              after the service started, or re-applied with an empty bundle, gets it within this)
 * @param renewBefore           an issued certificate with less validity left is renewed when a replica starts
 */
@ConfigurationProperties("quotient.admission")
public record AdmissionProperties(
        Integer port,
        Path tlsCertFile,
        Path tlsKeyFile,
        @DefaultValue("quotient") String serviceName,
        @DefaultValue("quotient-webhook-tls") String certificateSecret,

        @DefaultValue({"quotient-gpujobs", "quotient-workloads"})
        List<String> webhookConfigurations,

        @DefaultValue({}) List<String> extraSubjectNames,
        @DefaultValue("30s") Duration caBundleCheck,
        @DefaultValue("30d") Duration renewBefore) {

    public AdmissionProperties {
        if ((tlsCertFile == null) != (tlsKeyFile == null)) {
            throw new IllegalArgumentException(
                    "quotient.admission.tls-cert-file and tls-key-file go together (got only "
                            + (tlsCertFile == null ? "tls-key-file" : "tls-cert-file")
                            + "): set both to serve a mounted"
                            + " certificate, or neither to have the service issue its own");
        }
        if (port != null && (port < 1 || port > 65535)) {
            throw new IllegalArgumentException(
                    "quotient.admission.port must be a TCP port from 1 to 65535, got " + port);
        }
        SettingChecks.positive("quotient.admission.ca-bundle-check", caBundleCheck);
        SettingChecks.positive("quotient.admission.renew-before", renewBefore);
        webhookConfigurations = List.copyOf(webhookConfigurations);
        extraSubjectNames = List.copyOf(extraSubjectNames);
    }

    /** Whether the service issues the webhook's certificate itself (a port, and no certificate files). */
    public boolean issuesCertificate() {
        return port != null && tlsCertFile == null;
    }
}
