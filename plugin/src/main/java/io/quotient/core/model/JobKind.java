package io.quotient.core.model;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What a job is, as the idle policy sees it: a Kubeflow Notebook is a {@code notebook}, a KServe InferenceService
 * {@code inference}, everything else {@code train} unless its request says otherwise. Training jobs are never
 * released for idleness unless their team lists {@code train} in its idle policy.
 */
public enum JobKind {
    TRAIN("train"),
    NOTEBOOK("notebook"),
    INFERENCE("inference");

    private final String wireName;

    JobKind(String wireName) {
        this.wireName = wireName;
    }

    /** The name in requests and the teams file. */
    public String wireName() {
        return wireName;
    }

    /** @throws IllegalArgumentException naming the accepted kinds */
    public static JobKind fromWireName(String text) {
        for (JobKind kind : values()) {
            if (WireName.matches(kind.wireName, text)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("must be one of " + accepted() + ", was '" + text + "'");
    }

    /** The accepted names, for messages: "train, notebook or inference". */
    public static String accepted() {
        String all = Arrays.stream(values()).map(JobKind::wireName).collect(Collectors.joining(", "));
        int last = all.lastIndexOf(", ");
        return all.substring(0, last) + " or " + all.substring(last + 2);
    }
}
