package io.quotient.app;

import io.quotient.adapters.rest.AdmissionPortFilter;
import io.quotient.adapters.rest.JsonRefusal;
import io.quotient.adapters.tls.CertificateIssuer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.apache.catalina.connector.Connector;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * The HTTPS port the API server calls the admission webhooks on ({@code quotient.admission.*}): a second connector
 * beside the plain API port. Its certificate is either mounted (PEM files from a TLS Secret, e.g. cert-manager's, whose
 * CA goes into the webhooks' caBundle by its injector) or issued by the service itself (kept in a Secret shared by the
 * replicas, its CA put into the caBundles by the service: nothing to install first). Without a port there is no
 * webhook; invalid GpuJobs applied with kubectl are then marked Failed by the service.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AdmissionProperties.class)
public class AdmissionServerConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(AdmissionServerConfiguration.class);

    /** The certificate files the connector serves (only with an admission port). */
    @Bean
    @ConditionalOnProperty(prefix = "quotient.admission", name = "port")
    AdmissionTls admissionTls(
            AdmissionProperties properties, ObjectProvider<AdmissionCertificateSource> sources, Clock clock) {
        if (!properties.issuesCertificate()) {
            return AdmissionTls.mounted(properties.tlsCertFile(), properties.tlsKeyFile());
        }
        AdmissionCertificateSource source = sources.getIfAvailable(() -> inMemory(clock));
        return AdmissionTls.issued(source.obtain(properties));
    }

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> admissionConnector(
            AdmissionProperties properties, ObjectProvider<AdmissionTls> admissionTls) {
        return factory -> admissionTls.ifAvailable(tls -> {
            Connector connector = new Connector(TomcatServletWebServerFactory.DEFAULT_PROTOCOL);
            connector.setPort(properties.port());
            connector.setScheme("https");
            connector.setSecure(true);
            AbstractHttp11Protocol<?> protocol = (AbstractHttp11Protocol<?>) connector.getProtocolHandler();
            protocol.setSSLEnabled(true);
            SSLHostConfig ssl = new SSLHostConfig();
            SSLHostConfigCertificate certificate =
                    new SSLHostConfigCertificate(ssl, SSLHostConfigCertificate.Type.UNDEFINED);
            certificate.setCertificateFile(tls.certificateFile().toString());
            certificate.setCertificateKeyFile(tls.keyFile().toString());
            ssl.addCertificate(certificate);
            protocol.addSslHostConfig(ssl);
            factory.addAdditionalTomcatConnectors(connector);
            LOG.info(
                    "admission webhook: HTTPS on port {} (certificate {}, {})",
                    properties.port(),
                    tls.certificateFile(),
                    tls.issued().isPresent() ? "issued by the service" : "mounted");
        });
    }

    /**
     * The webhooks are served on the admission port alone: exempt from the access check because the API server calls
     * them without a token, they must not be reachable that way on the API port. Right after the path check.
     */
    @Bean
    FilterRegistrationBean<AdmissionPortFilter> admissionPortFilter(
            AdmissionProperties properties, JsonRefusal refusal) {
        OptionalInt port = properties.port() == null ? OptionalInt.empty() : OptionalInt.of(properties.port());
        return FilterRegistrations.onEveryPath(new AdmissionPortFilter(port, refusal), Ordered.HIGHEST_PRECEDENCE + 2);
    }

    /** The embedded demo has no Secret to share a certificate through: one made at start, for this host. */
    private static AdmissionCertificateSource inMemory(Clock clock) {
        return properties -> {
            List<String> names = new ArrayList<>(List.of(properties.serviceName(), "localhost", "127.0.0.1"));
            properties.extraSubjectNames().stream()
                    .filter(name -> !names.contains(name))
                    .forEach(names::add);
            return CertificateIssuer.standard().issue("quotient-webhook-ca", names, clock.instant());
        };
    }
}
