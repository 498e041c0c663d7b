package io.quotient.core.request;

import java.util.regex.Pattern;

/**
 * Kubernetes' rule for a label value ({@code nvidia.com/gpu.product}, a pod label): at most 63 characters of letters,
 * digits, {@code -}, {@code _} and {@code .}, starting and ending with a letter or digit, or empty. One rule for
 * every check that a value could be a label value, so what a request may name and what a node can carry agree.
 */
public final class LabelValue {

    /** The longest label value Kubernetes stores. */
    public static final int MAX_LENGTH = 63;

    /** The rule in words, for the errors that refuse a GPU model name by it. */
    public static final String GPU_MODEL_RULE = "a node's nvidia.com/gpu.product label value: at most " + MAX_LENGTH
            + " letters, digits, '-', '_' and '.', starting and ending with a letter or digit";

    private static final Pattern VALUE = Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?");

    private LabelValue() {}

    /** Whether {@code value} is a label value (the empty one included). */
    public static boolean valid(String value) {
        return value != null && VALUE.matcher(value).matches();
    }
}
