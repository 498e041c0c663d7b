package io.quotient.app.kubernetes;

import io.kubernetes.client.openapi.ApiClient;
import io.quotient.adapters.k8s.webhook.CaBundleInjector;
import io.quotient.adapters.k8s.webhook.WebhookCertificateSecret;
import io.quotient.adapters.tls.CertificateIssuer;
import io.quotient.adapters.tls.ServingCertificate;
import io.quotient.app.AdmissionCertificateSource;
import io.quotient.app.AdmissionProperties;
import io.quotient.app.AdmissionTls;
import io.quotient.app.ClusterModeCondition;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * On a cluster, an admission certificate the service issues lives in a Secret of its namespace (one for all
 * replicas) and its CA is kept in the webhooks' caBundle by the service: the webhooks work without cert-manager.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(ClusterModeCondition.Kubernetes.class)
public class WebhookCertificateConfiguration {

    @Bean
    AdmissionCertificateSource secretCertificateSource(
            ApiClient kubernetesApiClient, KubernetesProperties kubernetes, Clock clock) {
        return admission -> {
            List<String> names = serviceNames(admission.serviceName(), kubernetes.namespace());
            admission.extraSubjectNames().stream()
                    .filter(name -> !names.contains(name))
                    .forEach(names::add);
            return new WebhookCertificateSecret(
                            kubernetesApiClient, kubernetes.namespace(), admission.certificateSecret(), clock)
                    .obtain(
                            names,
                            admission.renewBefore(),
                            () -> CertificateIssuer.standard().issue("quotient-webhook-ca", names, clock.instant()));
        };
    }

    /**
     * Only for an issued certificate (it does nothing otherwise): a mounted one's CA is the business of whoever
     * issued it (cert-manager's CA injector).
     */
    @Bean(initMethod = "start", destroyMethod = "close")
    CaBundleInjection caBundleInjection(
            ObjectProvider<AdmissionTls> admissionTls, ApiClient kubernetesApiClient, AdmissionProperties admission) {
        Optional<String> caBundle = Optional.ofNullable(admissionTls.getIfAvailable())
                .flatMap(AdmissionTls::issued)
                .map(ServingCertificate::caBundlePem);
        return new CaBundleInjection(
                new CaBundleInjector(kubernetesApiClient),
                admission.webhookConfigurations(),
                caBundle,
                admission.caBundleCheck());
    }

    /** The names a client uses for the Service, as the API server's service reference resolves it and short ones. */
    static List<String> serviceNames(String service, String namespace) {
        return new ArrayList<>(List.of(
                service + "." + namespace + ".svc",
                service + "." + namespace + ".svc.cluster.local",
                service + "." + namespace,
                service));
    }
}
