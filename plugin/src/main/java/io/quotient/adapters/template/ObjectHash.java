package io.quotient.adapters.template;

import com.google.gson.Gson;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A digest of a rendered object that does not depend on map order: equal objects hash equal, so an existing
 * object carrying the same hash needs no update (the idea of VDK's "skip unchanged objects").
 */
public final class ObjectHash {

    private static final Gson GSON = new Gson();

    private ObjectHash() {}

    /** The first 16 bytes of the SHA-256 of the object's canonical JSON, in hex. */
    public static String of(Object tree) {
        try {
            byte[] json = GSON.toJson(canonical(tree)).getBytes(StandardCharsets.UTF_8);
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(json);
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private static Object canonical(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> sorted = new TreeMap<>();
            map.forEach((k, v) -> sorted.put(String.valueOf(k), canonical(v)));
            return sorted;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(v -> copy.add(canonical(v)));
            return copy;
        }
        return value;
    }
}
