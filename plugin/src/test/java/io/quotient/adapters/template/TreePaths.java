package io.quotient.adapters.template;

import java.util.List;
import java.util.Map;

/** Reads paths like {@code spec.template.spec.containers[0].image} from a rendered tree, for assertions. */
final class TreePaths {

    private TreePaths() {}

    @SuppressWarnings("unchecked")
    static <T> T at(Object tree, String path) {
        Object current = tree;
        for (String part : path.split("\\.")) {
            String key = part;
            Integer index = null;
            int bracket = part.indexOf('[');
            if (bracket >= 0) {
                key = part.substring(0, bracket);
                index = Integer.parseInt(part.substring(bracket + 1, part.length() - 1));
            }
            if (!key.isEmpty()) {
                current = current == null ? null : ((Map<String, Object>) current).get(key);
            }
            if (index != null) {
                current = current == null ? null : ((List<Object>) current).get(index);
            }
        }
        return (T) current;
    }

    /** The value of the env variable {@code name} of a container mapping, or null. */
    @SuppressWarnings("unchecked")
    static String env(Map<String, Object> container, String name) {
        Object env = container.get("env");
        if (env == null) {
            return null;
        }
        for (Object e : (List<Object>) env) {
            Map<String, Object> entry = (Map<String, Object>) e;
            if (name.equals(entry.get("name"))) {
                return (String) entry.get("value");
            }
        }
        return null;
    }
}
