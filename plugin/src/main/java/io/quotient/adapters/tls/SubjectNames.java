package io.quotient.adapters.tls;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** The DNS names and IP addresses a certificate is for (its subjectAltName: clients ignore the common name). */
final class SubjectNames {

    /** General name types of RFC 5280 as {@link X509Certificate#getSubjectAlternativeNames()} reports them. */
    private static final int DNS_NAME = 2;

    private static final int IP_ADDRESS = 7;
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private SubjectNames() {}

    static List<String> of(X509Certificate certificate) {
        try {
            Collection<List<?>> names = certificate.getSubjectAlternativeNames();
            List<String> result = new ArrayList<>();
            if (names != null) {
                for (List<?> name : names) {
                    int type = (Integer) name.get(0);
                    if (type == DNS_NAME || type == IP_ADDRESS) {
                        result.add((String) name.get(1));
                    }
                }
            }
            return result;
        } catch (CertificateParsingException e) {
            throw new IllegalArgumentException("the certificate's subject names cannot be read: " + e.getMessage(), e);
        }
    }

    /**
     * A subject name as a certificate reports it: IP literals in the JDK's form ({@code ::1} is
     * {@code 0:0:0:0:0:0:0:1}), DNS names in lower case.
     */
    static String canonical(String name) {
        if (!isIpAddress(name)) {
            return name.toLowerCase(Locale.ROOT);
        }
        try {
            return InetAddress.getByName(name).getHostAddress(); // a literal: no lookup is made
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("'" + name + "' is not a valid IP address", e);
        }
    }

    /** Whether a subject name is an IP address literal (it goes into the certificate as one, not as a DNS name). */
    static boolean isIpAddress(String name) {
        return IPV4.matcher(name).matches() || name.contains(":");
    }
}
