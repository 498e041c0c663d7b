package io.quotient.adapters.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Navigation and editing of YAML/JSON object trees (maps of lists of maps). Rendering works on these
 * trees and only ever sets values on them, so user input stays data and is never parsed as YAML.
 */
final class Trees {

    private Trees() {}

    /** The mapping under {@code key}; fails naming the path when it is missing or not a mapping. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> requiredMap(Map<String, Object> parent, String key, String parentPath) {
        Object value = parent.get(key);
        if (value instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        String path = parentPath.isEmpty() ? key : parentPath + "." + key;
        throw new IllegalArgumentException(
                path + (value == null ? " is missing" : " must be a mapping, was " + describe(value)));
    }

    /** The list under {@code key}; fails naming the path when it is missing or not a list. */
    @SuppressWarnings("unchecked")
    static List<Object> requiredList(Map<String, Object> parent, String key, String parentPath) {
        Object value = parent.get(key);
        if (value instanceof List<?> list) {
            return (List<Object>) list;
        }
        String path = parentPath.isEmpty() ? key : parentPath + "." + key;
        throw new IllegalArgumentException(
                path + (value == null ? " is missing" : " must be a list, was " + describe(value)));
    }

    /** The mapping under {@code key}, created empty when absent (or null in the template). */
    @SuppressWarnings("unchecked")
    static Map<String, Object> childMap(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        if (value instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        Map<String, Object> created = new LinkedHashMap<>();
        parent.put(key, created);
        return created;
    }

    /** The list under {@code key}, created empty when absent. */
    @SuppressWarnings("unchecked")
    static List<Object> childList(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        if (value instanceof List<?> list) {
            return (List<Object>) list;
        }
        List<Object> created = new ArrayList<>();
        parent.put(key, created);
        return created;
    }

    /** The mappings of a list, in order; fails naming the path for an element that is not a mapping. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> maps(List<Object> list, String path) {
        List<Map<String, Object>> result = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i) instanceof Map<?, ?> map)) {
                throw new IllegalArgumentException(
                        path + "[" + i + "] must be a mapping, was " + describe(list.get(i)));
            }
            result.add((Map<String, Object>) map);
        }
        return result;
    }

    /** A deep, mutable copy, so that rendering never changes the loaded template. */
    @SuppressWarnings("unchecked")
    static <T> T deepCopy(T value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(String.valueOf(k), deepCopy(v)));
            return (T) copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(v -> copy.add(deepCopy(v)));
            return (T) copy;
        }
        return value;
    }

    private static String describe(Object value) {
        if (value instanceof List<?>) {
            return "a list";
        }
        if (value instanceof Map<?, ?>) {
            return "a mapping";
        }
        return "'" + value + "'";
    }
}
