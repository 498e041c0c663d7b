package io.quotient.it.harness;

import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/** Unique, valid Kubernetes names for objects one test makes, so tests never see each other's leftovers. */
final class RandomNames {

    private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
    private static final int SUFFIX_LENGTH = 5;
    private static final int MAX_PREFIX = 40;

    private RandomNames() {}

    /** {@code <prefix>-<5 random characters>}; the prefix is cut to 40 characters. */
    static String withSuffix(String prefix) {
        StringBuilder name = new StringBuilder(prefix.substring(0, Math.min(prefix.length(), MAX_PREFIX))).append('-');
        for (int i = 0; i < SUFFIX_LENGTH; i++) {
            name.append(ALPHABET.charAt(ThreadLocalRandom.current().nextInt(ALPHABET.length())));
        }
        return name.toString();
    }

    /** A DNS label made from free text such as a test method's name ("podStaysPending()" -> "podstayspending"). */
    static String dnsLabel(String text) {
        String label =
                text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        label = label.substring(0, Math.min(label.length(), MAX_PREFIX)).replaceAll("-+$", "");
        return label.isEmpty() ? "test" : label;
    }
}
