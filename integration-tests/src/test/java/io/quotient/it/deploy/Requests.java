package io.quotient.it.deploy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Bodies of POST /api/v1/teams/{team}/jobs used by the tests. */
public final class Requests {

    private Requests() {}

    /** A preemptible batch job with {@code count} whole GPUs. */
    static Map<String, Object> wholeGpus(String name, int count) {
        return body(name, Map.of("count", count));
    }

    /** A preemptible batch job with a fraction of one GPU (limit = request). */
    static Map<String, Object> fraction(String name, double fraction) {
        return body(name, Map.of("fraction", fraction, "fractionLimit", fraction));
    }

    public static Map<String, Object> body(String name, Map<String, Object> gpu) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", name);
        body.put("image", "busybox:1.36");
        body.put("command", List.of("sleep", "3600"));
        body.put("gpu", gpu);
        body.put("preemptible", true);
        return body;
    }

    /** A copy of {@code body} with one field changed (or added). */
    static Map<String, Object> with(Map<String, Object> body, String field, Object value) {
        Map<String, Object> copy = new HashMap<>(body);
        copy.put(field, value);
        return copy;
    }
}
