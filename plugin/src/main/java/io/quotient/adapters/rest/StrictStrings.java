package io.quotient.adapters.rest;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;

/**
 * Reads a string field only from a JSON string that is Unicode text. JSON's {@code \ud800} escape writes half of a
 * surrogate pair, which no UTF-8 byte sequence may carry (the body's bytes are checked, see {@link Utf8Checker}, but
 * an escape gets past that check): such a string cannot be written to Kubernetes, a log or a shell as the same text,
 * so it is refused naming the field ({@link JsonErrors}).
 */
final class StrictStrings extends StdScalarDeserializer<String> {

    /** A string with half a surrogate pair, at {@code index}. */
    static final class UnpairedSurrogateException extends JsonMappingException {
        private static final long serialVersionUID = 1L;

        UnpairedSurrogateException(JsonParser p, int index) {
            super(p, "a lone surrogate (\\ud800-\\udfff) at character " + index);
        }

        String reason() {
            return getOriginalMessage()
                    + " is half of a UTF-16 pair and no Unicode text; write the character itself or its full pair";
        }
    }

    private StrictStrings() {
        super(String.class);
    }

    /** The module that reads {@code String} fields, list entries and map values this way. */
    static SimpleModule module() {
        return new SimpleModule("quotient-strict-strings").addDeserializer(String.class, new StrictStrings());
    }

    @Override
    public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        if (!p.hasToken(JsonToken.VALUE_STRING)) {
            return (String) ctxt.handleUnexpectedToken(String.class, p);
        }
        String text = p.getText();
        int lone = loneSurrogate(text);
        if (lone >= 0) {
            throw new UnpairedSurrogateException(p, lone);
        }
        return text;
    }

    /** The index of the first surrogate that is not half of a high-low pair, or -1. */
    static int loneSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }
}
