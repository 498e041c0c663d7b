package io.quotient.app;

import org.apache.catalina.connector.Connector;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The HTTPS port the API server calls the GpuJob admission webhook on ({@code quotient.admission.*}): a second
 * connector beside the plain API port, with a PEM certificate and key from files (in a cluster: a TLS Secret mounted
 * into the pod, e.g. issued by cert-manager, whose CA goes into the ValidatingWebhookConfiguration's caBundle).
 * Without a port there is no webhook; invalid GpuJobs applied with kubectl are then marked Failed by the service.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AdmissionServerConfiguration.AdmissionProperties.class)
public class AdmissionServerConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(AdmissionServerConfiguration.class);

    /**
     * @param port        HTTPS port of the webhook; unset: no webhook
     * @param tlsCertFile PEM certificate (chain) the API server verifies against the webhook's caBundle
     * @param tlsKeyFile  its PEM private key
     */
    @ConfigurationProperties("quotient.admission")
    public record AdmissionProperties(Integer port, Path tlsCertFile, Path tlsKeyFile) {
    }

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> admissionConnector(AdmissionProperties properties) {
        return factory -> {
            if (properties.port() == null) {
                return;
            }
            for (Path file : new Path[] {properties.tlsCertFile(), properties.tlsKeyFile()}) {
                if (file == null || !Files.isReadable(file)) {
                    throw new IllegalStateException("quotient.admission.port is set, but quotient.admission.tls-cert-file"
                            + " and tls-key-file must name readable PEM files (was " + file + "); mount the webhook's"
                            + " TLS Secret and point them at tls.crt and tls.key");
                }
            }
            Connector connector = new Connector(TomcatServletWebServerFactory.DEFAULT_PROTOCOL);
            connector.setPort(properties.port());
            connector.setScheme("https");
            connector.setSecure(true);
            AbstractHttp11Protocol<?> protocol = (AbstractHttp11Protocol<?>) connector.getProtocolHandler();
            protocol.setSSLEnabled(true);
            SSLHostConfig ssl = new SSLHostConfig();
            SSLHostConfigCertificate certificate = new SSLHostConfigCertificate(ssl, SSLHostConfigCertificate.Type.UNDEFINED);
            certificate.setCertificateFile(properties.tlsCertFile().toString());
            certificate.setCertificateKeyFile(properties.tlsKeyFile().toString());
            ssl.addCertificate(certificate);
            protocol.addSslHostConfig(ssl);
            factory.addAdditionalTomcatConnectors(connector);
            LOG.info("admission webhook: HTTPS on port {} (certificate {})", properties.port(), properties.tlsCertFile());
        };
    }
}
