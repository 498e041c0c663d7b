package io.quotient.deploy.port;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Unmodifiable copies of a submission's lists and maps that keep null entries: a request as written may hold them
 * ({@code "command": ["a", null]}), and the submission checks must refuse them naming the entry
 * ({@code command[1]}) instead of the copy failing without a word on which.
 */
final class Copies {

    private Copies() {}

    static <T> List<T> list(List<T> values) {
        return values == null || values.isEmpty() ? List.of() : Collections.unmodifiableList(new ArrayList<>(values));
    }

    static <V> Map<String, V> map(Map<String, V> values) {
        return values == null || values.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }
}
