package io.quotient.deploy.port;

import java.util.Map;

/**
 * The user's own metadata for a job's pods, as written: the labels and annotations the template adds to those
 * Quotient sets (Quotient's own keys and the GPU request annotations are refused by the submission checks).
 *
 * @param labels      extra labels of the workload's pods ({@code labels})
 * @param annotations extra annotations of the pods ({@code annotations})
 */
public record Metadata(Map<String, String> labels, Map<String, String> annotations) {

    /** No labels or annotations of the user's. */
    public static final Metadata NONE = new Metadata(Map.of(), Map.of());

    public Metadata {
        labels = Copies.map(labels);
        annotations = Copies.map(annotations);
    }

    /** Only these labels. */
    public static Metadata labels(Map<String, String> labels) {
        return new Metadata(labels, Map.of());
    }
}
