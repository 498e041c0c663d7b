package io.quotient.deploy;

import io.quotient.core.request.RequestException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What the API server checks of label and annotation keys, checked before anything is recorded: a key is a
 * qualified name, {@code [prefix/]name} with a DNS-subdomain prefix of at most 253 characters and a name of at most
 * 63 letters, digits, '-', '_' and '.' that starts and ends alphanumeric; a pod's annotations hold at most 256 KiB.
 */
final class MetadataKeys {

    /** The API server's limit on the keys and values of one object's annotations together, in bytes. */
    static final int MAX_ANNOTATIONS_BYTES = 256 * 1024;

    private static final int MAX_NAME = 63;
    private static final int MAX_PREFIX = 253;
    private static final Pattern NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    private static final Pattern PREFIX =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private MetadataKeys() {}

    /**
     * @param kind {@code labels} or {@code annotations}: starts the field named in the error
     * @throws RequestException when the key is not a qualified name
     */
    static void checkKey(String kind, String key) {
        String field = kind + "." + key;
        if (key.isEmpty()) {
            throw new RequestException(kind, "has an empty key; a key is [prefix/]name, e.g. example.com/owner");
        }
        int slash = key.indexOf('/');
        String name = slash < 0 ? key : key.substring(slash + 1);
        String prefix = slash < 0 ? null : key.substring(0, slash);
        if (prefix != null
                && (prefix.isEmpty()
                        || prefix.length() > MAX_PREFIX
                        || !PREFIX.matcher(prefix).matches())) {
            throw new RequestException(
                    field,
                    "is not a valid key: its prefix (before '/') must be a DNS subdomain of" + " at most " + MAX_PREFIX
                            + " characters (lower-case letters, digits, '-' and '.')");
        }
        if (name.length() > MAX_NAME || !NAME.matcher(name).matches()) {
            throw new RequestException(
                    field,
                    "is not a valid key: its name" + (prefix == null ? "" : " (after '/')")
                            + " must be at most " + MAX_NAME
                            + " letters, digits, '-', '_' or '.', starting and ending with a"
                            + " letter or digit");
        }
    }

    /** @throws RequestException when keys and values together exceed what the API server stores */
    static void checkAnnotationsSize(Map<String, String> annotations) {
        long bytes = 0;
        for (Map.Entry<String, String> e : annotations.entrySet()) {
            bytes += e.getKey().getBytes(StandardCharsets.UTF_8).length
                    + (e.getValue() == null ? 0 : e.getValue().getBytes(StandardCharsets.UTF_8).length);
        }
        if (bytes > MAX_ANNOTATIONS_BYTES) {
            throw new RequestException(
                    "annotations",
                    "hold " + bytes + " bytes of keys and values; the API server"
                            + " stores at most " + MAX_ANNOTATIONS_BYTES
                            + " (256 KiB) for a pod: move large data to a config"
                            + " map or volume");
        }
    }
}
