package io.quotient.app;

import io.quotient.adapters.tls.ServingCertificate;

/**
 * Where an issued admission certificate comes from: on a cluster a TLS Secret shared by the replicas; in the embedded
 * demo a certificate made at start and kept in memory.
 */
@FunctionalInterface
public interface AdmissionCertificateSource {

    ServingCertificate obtain(AdmissionProperties properties);
}
