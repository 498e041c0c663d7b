package io.quotient.adapters.rest;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Describes why a request body could not be read, in the words of the API: the field as written ({@code gpu.count},
 * {@code command[2]}) and what it must be ("must be a whole number"), never the reader's own message, which names
 * Java types and parser tokens a user cannot act on.
 */
final class JsonErrors {

    private static final Pattern DUPLICATE = Pattern.compile("Duplicate field '(.*)'", Pattern.DOTALL);
    private static final String SCHEMA_HINT = "see the request schema at /v3/api-docs; nothing was created";

    private JsonErrors() {}

    /** The answer for a body the reader refused; {@code cause} is null when there was no body at all. */
    static ErrorBody describe(Throwable cause) {
        if (cause instanceof UnrecognizedPropertyException u) {
            return invalid(
                    path(u),
                    "unknown field '" + u.getPropertyName() + "'",
                    "remove it or fix its spelling;"
                            + " known fields: "
                            + u.getKnownPropertyIds().stream()
                                    .map(String::valueOf)
                                    .sorted()
                                    .collect(Collectors.joining(", ")));
        }
        if (cause instanceof StrictStrings.UnpairedSurrogateException u) {
            return invalid(orBody(path(u)), u.reason(), SCHEMA_HINT);
        }
        if (cause instanceof JsonMappingException m
                && m.getCause() instanceof JsonProcessingException inner
                && !(inner instanceof JsonMappingException)) {
            // a parser failure wrapped with the path of the field being read
            return parserFailure(inner, path(m));
        }
        if (cause instanceof MismatchedInputException m) {
            return mismatch(m);
        }
        if (cause instanceof JsonMappingException m) {
            return invalid(orBody(path(m)), "could not be read", SCHEMA_HINT);
        }
        if (cause instanceof JsonProcessingException p) {
            return parserFailure(p, null);
        }
        return invalid(null, "the body is missing or is not valid JSON", "send a JSON object; " + SCHEMA_HINT);
    }

    private static ErrorBody mismatch(MismatchedInputException m) {
        String path = path(m);
        if (path.isEmpty()) {
            String message = String.valueOf(m.getOriginalMessage());
            if (message.startsWith("Trailing token")) {
                return invalid(
                        null,
                        "the body goes on after its JSON object (a second value or stray characters)",
                        "send exactly one JSON object; " + SCHEMA_HINT);
            }
            if (message.startsWith("No content") || message.contains("end-of-input")) {
                return invalid(null, "the body is missing", "send a JSON object; " + SCHEMA_HINT);
            }
            return invalid(null, "the body must be a JSON object", SCHEMA_HINT);
        }
        return invalid(path, "must be " + expected(m.getTargetType()), SCHEMA_HINT);
    }

    private static ErrorBody parserFailure(JsonProcessingException p, String wrappedPath) {
        if (p instanceof LeafPathJsonFactory.ReadLimitException r) {
            // the parser stands on the value it could not read (a name too long: in the object that holds it; too
            // deep: nowhere worth naming, a path of 1000 levels)
            String message = String.valueOf(r.limit().getMessage());
            String where = message.startsWith("Name length")
                    ? parentPath(r)
                    : message.startsWith("Document nesting depth") ? "" : parserPath(r);
            return invalid(
                    orBody(where.isEmpty() ? wrappedPath : where),
                    "is larger than the service reads (" + limitHit(r.limit()) + ")",
                    SCHEMA_HINT);
        }
        String path = wrappedPath != null && !wrappedPath.isEmpty() ? wrappedPath : parserPath(p);
        if (p instanceof InputCoercionException c) {
            return invalid(orBody(path), "must be " + expectedInRange(c.getTargetType()), SCHEMA_HINT);
        }
        if (p instanceof StreamConstraintsException c) {
            return invalid(orBody(path), "is larger than the service reads (" + limitHit(c) + ")", SCHEMA_HINT);
        }
        Matcher duplicate = DUPLICATE.matcher(String.valueOf(p.getOriginalMessage()));
        if (duplicate.matches()) {
            String field = join(parentPath(p), duplicate.group(1));
            return invalid(field, "is given twice in the same object", "give each field once; nothing was created");
        }
        if (p instanceof JsonEOFException
                || String.valueOf(p.getOriginalMessage()).contains("end-of-input")) {
            return invalid(
                    null, "the body ends in the middle of a JSON value", "send a complete JSON object; " + SCHEMA_HINT);
        }
        return invalid(
                null, "the body is not valid JSON" + where(p.getLocation()), "send a JSON object; " + SCHEMA_HINT);
    }

    /** Which of the reader's limits the body went past, in the API's words (the reader's message names its setting). */
    private static String limitHit(StreamConstraintsException c) {
        String message = String.valueOf(c.getMessage());
        if (message.startsWith("Name length")) {
            return "a field name of more than 50,000 characters";
        }
        if (message.startsWith("Number value length")) {
            return "a number of more than 1000 digits";
        }
        if (message.startsWith("String value length")) {
            return "a string of more than 20,000,000 characters";
        }
        if (message.startsWith("Document nesting depth")) {
            return "more than 1000 levels of nesting";
        }
        return "numbers of at most 1000 digits, field names of at most 50,000 characters, strings of at most"
                + " 20,000,000, at most 1000 levels of nesting";
    }

    /** The JSON path of a mapping error as the user wrote it: {@code gpu.fraction}, {@code command[2]}. */
    static String path(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                sb.append(sb.isEmpty() ? "" : ".").append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                sb.append('[').append(ref.getIndex()).append(']');
            }
        }
        return sb.toString();
    }

    /** Where the parser stood when it failed, as a field path; empty at the top level. */
    private static String parserPath(JsonProcessingException p) {
        return p.getProcessor() instanceof JsonParser parser ? contextPath(parser.getParsingContext()) : "";
    }

    /** The path of the object holding the field being read (a duplicate key is reported before it is entered). */
    private static String parentPath(JsonProcessingException p) {
        if (p.getProcessor() instanceof JsonParser parser && parser.getParsingContext() != null) {
            return contextPath(parser.getParsingContext().getParent());
        }
        return "";
    }

    private static String contextPath(JsonStreamContext context) {
        Deque<String> parts = new ArrayDeque<>();
        for (JsonStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
            if (c.inObject() && c.getCurrentName() != null) {
                parts.addFirst("." + c.getCurrentName());
            } else if (c.inArray()) {
                parts.addFirst("[" + Math.max(0, c.getCurrentIndex()) + "]");
            }
        }
        String path = String.join("", parts);
        return path.startsWith(".") ? path.substring(1) : path;
    }

    private static String join(String parent, String name) {
        return parent.isEmpty() ? name : parent + "." + name;
    }

    private static String orBody(String path) {
        return path == null || path.isEmpty() ? null : path;
    }

    /** The JSON type a Java type is read from, in the words of the API. */
    static String expected(Class<?> type) {
        if (type == null) {
            return "a value of another type";
        }
        if (type == Integer.class
                || type == int.class
                || type == Long.class
                || type == long.class
                || type == Short.class
                || type == short.class
                || type == BigInteger.class) {
            return "a whole number";
        }
        if (type == Double.class
                || type == double.class
                || type == Float.class
                || type == float.class
                || type == BigDecimal.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (CharSequence.class.isAssignableFrom(type) || type.isEnum()) {
            return "a string";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "a list";
        }
        if (Map.class.isAssignableFrom(type)) {
            return "an object of string values";
        }
        return "an object";
    }

    /** {@link #expected} with the range of a whole number type: "a whole number from -2147483648 to 2147483647". */
    static String expectedInRange(Class<?> type) {
        if (type == Integer.class || type == int.class) {
            return expected(type) + " from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
        }
        if (type == Long.class || type == long.class) {
            return expected(type) + " from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE;
        }
        return expected(type);
    }

    private static String where(JsonLocation location) {
        if (location == null || location.getLineNr() < 0) {
            return "";
        }
        return " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    }

    private static ErrorBody invalid(String field, String reason, String hint) {
        return new ErrorBody("invalid request", field, reason, hint);
    }
}
