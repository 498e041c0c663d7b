package io.quotient.adapters.rest;

/**
 * Every error answer: what happened, which field (null when none), why, and what to do. A field, reason or hint that
 * quotes what the request sent (an image, a model or a label key of 100,000 characters) is cut in its middle to a
 * length a person reads ({@link #MAX_FIELD}, {@link #MAX_TEXT} characters): its start says which value was wrong and
 * its end what to do, and an answer never echoes a whole payload.
 *
 * @param error  short kind of the error ({@code invalid request}, {@code unknown team}, ...)
 * @param field  the request field at fault, as written in the request ({@code gpu.fraction}); may be null
 * @param reason why it was refused; nothing was created or changed
 * @param hint   what to do about it
 */
public record ErrorBody(String error, String field, String reason, String hint) {

    /** The longest field path an answer shows. */
    static final int MAX_FIELD = 256;

    /** The longest reason or hint an answer shows. */
    static final int MAX_TEXT = 1024;

    public ErrorBody {
        field = cut(field, MAX_FIELD);
        reason = cut(reason, MAX_TEXT);
        hint = cut(hint, MAX_TEXT);
    }

    private static String cut(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        int tail = max / 4;
        // never between the two halves of a surrogate pair: the answer stays valid UTF-16, and so its JSON
        int head = Character.isLowSurrogate(text.charAt(max - tail)) ? max - tail - 1 : max - tail;
        int from = Character.isLowSurrogate(text.charAt(text.length() - tail))
                ? text.length() - tail + 1
                : text.length() - tail;
        return text.substring(0, head) + "...(" + (from - head) + " characters left out)..." + text.substring(from);
    }
}
