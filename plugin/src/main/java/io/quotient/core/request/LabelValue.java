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

    private static final Pattern VALUE = Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?");

    private LabelValue() {}

    /** Whether {@code value} is a label value (the empty one included). */
    public static boolean valid(String value) {
        return value != null && VALUE.matcher(value).matches();
    }
}
