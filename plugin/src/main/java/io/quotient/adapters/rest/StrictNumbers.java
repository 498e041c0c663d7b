package io.quotient.adapters.rest;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;

/**
 * Reads a number field only from a JSON number. The reader's coercion settings ({@link StrictJson}) refuse strings for
 * numbers, but it reads the strings {@code "NaN"}, {@code "Infinity"} and {@code "-Infinity"} as those values before
 * it asks them: {@code "fraction": "NaN"} reached the request's checks as a number while {@code "0.5"} was refused.
 */
final class StrictNumbers extends StdScalarDeserializer<Double> {

    private StrictNumbers() {
        super(Double.class);
    }

    /** The module that reads {@code double} and {@code Double} fields this way. */
    static SimpleModule module() {
        SimpleModule module = new SimpleModule("quotient-strict-numbers");
        module.addDeserializer(Double.class, new StrictNumbers());
        module.addDeserializer(double.class, new StrictNumbers());
        return module;
    }

    @Override
    public Double deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        if (p.hasToken(JsonToken.VALUE_NUMBER_FLOAT) || p.hasToken(JsonToken.VALUE_NUMBER_INT)) {
            return p.getDoubleValue();
        }
        return (Double) ctxt.handleUnexpectedToken(Double.class, p);
    }
}
