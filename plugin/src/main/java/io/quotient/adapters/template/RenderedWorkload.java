package io.quotient.adapters.template;

import java.util.Map;
import java.util.Objects;

/**
 * A rendered Kubernetes object, ready to be created.
 *
 * @param body the object as a JSON-like tree (maps, lists, strings, numbers, booleans); owned by the caller
 * @param hash a digest of the rendered object, also written to its {@value TemplateRenderer#HASH_ANNOTATION}
 *             annotation: an existing object with the same hash needs no update
 */
public record RenderedWorkload(
        WorkloadKind kind, String namespace, String name, Map<String, Object> body, String hash) {

    public RenderedWorkload {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(hash, "hash");
    }
}
