package io.quotient.core.usage;

import io.quotient.core.model.WireName;
import io.quotient.core.request.RequestException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * One of an enum's constants named in a showback request, in any case ({@link WireName}); refused naming the field
 * otherwise.
 */
final class RequestedChoice {

    private RequestedChoice() {}

    /**
     * @param what  what the value names, for the refusal ("grouping", "bucket")
     * @param after said after the choices in the refusal (empty for nothing)
     * @throws RequestException naming {@code field}, with the value (cut) and the choices
     */
    static <E extends Enum<E>> E parse(E[] choices, String field, String what, String value, String after) {
        for (E choice : choices) {
            if (WireName.matches(choice.name(), value)) {
                return choice;
            }
        }
        throw new RequestException(
                field,
                "'" + UsageGrouping.excerpt(value) + "' is not a " + what + "; use one of "
                        + Arrays.stream(choices)
                                .map(c -> c.name().toLowerCase(Locale.ROOT))
                                .collect(Collectors.joining(", "))
                        + after);
    }
}
