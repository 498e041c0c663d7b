package io.quotient.replay;

import java.util.Locale;

/** What a replayed job is; decides whether it may be preempted when the trace does not say. */
public enum JobKind {
    TRAIN,
    NOTEBOOK,
    INFERENCE;

    /** Training checkpoints and resumes; an interactive notebook or a serving job is not preempted by default. */
    public boolean preemptibleByDefault() {
        return this == TRAIN;
    }

    /** @throws IllegalArgumentException naming the accepted kinds */
    public static JobKind parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "", "train" -> TRAIN;
            case "notebook" -> NOTEBOOK;
            case "inference" -> INFERENCE;
            default ->
                throw new IllegalArgumentException("kind must be train, notebook or inference, was '" + text + "'");
        };
    }
}
