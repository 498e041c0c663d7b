package io.quotient.adapters.template;

import io.quotient.deploy.port.TemplateTraits;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A loaded, checked template. The document is private to this record: rendering works on deep copies.
 *
 * @param name   what requests call it (the file name without {@code .yaml})
 * @param source where it was loaded from, for messages
 */
public record JobTemplate(String name, String source, WorkloadKind kind, Map<String, Object> document) {

    public JobTemplate {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        document = Trees.deepCopy(document);
    }

    /** The template's annotation saying whether its jobs are preemptible when a request does not say. */
    public static final String PREEMPTIBLE_ANNOTATION = "quotient.io/preemptible";

    /** What the template declares in {@value #PREEMPTIBLE_ANNOTATION}, or empty when it declares nothing. */
    public Optional<Boolean> preemptibleByDefault() {
        return declaredPreemptible(document);
    }

    /** What a request naming this template must fit, and its preemption default. */
    public TemplateTraits traits() {
        return new TemplateTraits(preemptibleByDefault().orElse(null), kind.spansNodes(), kind.runsOnNamedRuntime());
    }

    /** A mutable deep copy of the document, ready to be rendered. */
    Map<String, Object> copyDocument() {
        return Trees.deepCopy(document);
    }

    /**
     * Parses and checks one template document.
     *
     * @throws IllegalArgumentException with the reason when the document cannot be rendered
     */
    static JobTemplate check(String name, String source, Object loaded) {
        if (!(loaded instanceof Map<?, ?>)) {
            throw new IllegalArgumentException("the file must hold one YAML mapping (a Kubernetes object), was "
                    + (loaded == null ? "empty" : "a " + loaded.getClass().getSimpleName()));
        }
        Map<String, Object> document = Trees.deepCopy(castMap(loaded));
        WorkloadKind kind = WorkloadKind.of(document.get("apiVersion"), document.get("kind"))
                .orElseThrow(() -> new IllegalArgumentException("apiVersion '" + document.get("apiVersion")
                        + "' kind '" + document.get("kind") + "' is not supported; use one of "
                        + WorkloadKind.supportedList()));
        List<PodTemplate> pods = kind.podTemplates(document);
        pods.forEach(PodTemplate::validate);
        declaredPreemptible(document);
        return new JobTemplate(name, source, kind, document);
    }

    private static Optional<Boolean> declaredPreemptible(Map<String, Object> document) {
        Object metadata = document.get("metadata");
        Object annotations = metadata instanceof Map<?, ?> m ? m.get("annotations") : null;
        Object value = annotations instanceof Map<?, ?> a ? a.get(PREEMPTIBLE_ANNOTATION) : null;
        if (value == null) {
            return Optional.empty();
        }
        return switch (String.valueOf(value)) {
            case "true" -> Optional.of(true);
            case "false" -> Optional.of(false);
            default ->
                throw new IllegalArgumentException("metadata.annotations." + PREEMPTIBLE_ANNOTATION
                        + " must be \"true\" or \"false\", was '" + value + "'");
        };
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Object loaded) {
        return (Map<String, Object>) loaded;
    }
}
