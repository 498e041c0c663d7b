package io.quotient.adapters.rest;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.math.BigDecimal;

/**
 * Reads a number field only from a JSON number. The reader's coercion settings ({@link StrictJson}) refuse strings for
 * numbers, but it reads the strings {@code "NaN"}, {@code "Infinity"} and {@code "-Infinity"} as those values before
 * it asks them: {@code "fraction": "NaN"} reached the request's checks as a number while {@code "0.5"} was refused.
 * Decimal fields ({@link BigDecimal}: the GPU shares, judged as written) are read the same way.
 */
final class StrictNumbers<T> extends StdScalarDeserializer<T> {

    private interface Reader<T> {
        T read(JsonParser p) throws IOException;
    }

    private final Reader<T> reader;

    private StrictNumbers(Class<T> type, Reader<T> reader) {
        super(type);
        this.reader = reader;
    }

    /** The module that reads {@code double}, {@code Double} and {@code BigDecimal} fields this way. */
    static SimpleModule module() {
        SimpleModule module = new SimpleModule("quotient-strict-numbers");
        module.addDeserializer(Double.class, new StrictNumbers<>(Double.class, JsonParser::getDoubleValue));
        module.addDeserializer(double.class, new StrictNumbers<>(Double.class, JsonParser::getDoubleValue));
        module.addDeserializer(BigDecimal.class, new StrictNumbers<>(BigDecimal.class, JsonParser::getDecimalValue));
        return module;
    }

    @Override
    public T deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        if (p.hasToken(JsonToken.VALUE_NUMBER_FLOAT) || p.hasToken(JsonToken.VALUE_NUMBER_INT)) {
            return reader.read(p);
        }
        @SuppressWarnings("unchecked")
        T refused = (T) ctxt.handleUnexpectedToken(handledType(), p);
        return refused;
    }
}
