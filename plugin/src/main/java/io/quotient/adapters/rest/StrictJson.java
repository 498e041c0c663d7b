package io.quotient.adapters.rest;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.cfg.MutableCoercionConfig;
import com.fasterxml.jackson.databind.type.LogicalType;
import org.springframework.boot.autoconfigure.jackson.Jackson2ObjectMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The JSON reader of the REST API's request bodies reads exactly what was written: a key given twice, data after the
 * body, {@code 1.5} for a whole number, and strings, numbers and booleans standing in for each other are refused
 * (400 naming the field, see {@link JsonErrors}) instead of being resolved by a guess ({@code {"count":1,"count":8}}
 * must not take 8 GPUs). Only request reading is affected: answers are written as before, and the admission
 * webhooks read their AdmissionReview bodies as text with the Kubernetes client's own parser.
 */
@Configuration(proxyBeanMethods = false)
public class StrictJson {

    /** Numbers only from JSON numbers, not the strings "NaN" and "Infinity" (a module bean: Boot installs it). */
    @Bean
    Module strictNumbers() {
        return StrictNumbers.module();
    }

    /** Strings only as Unicode text: no lone surrogate from a {@code \ud800} escape. */
    @Bean
    Module strictStrings() {
        return StrictStrings.module();
    }

    @Bean
    Jackson2ObjectMapperBuilderCustomizer strictRequestBodies() {
        // parsers that say where a reader limit was hit (LeafPathJsonFactory)
        return builder -> builder.factory(new LeafPathJsonFactory())
                .featuresToEnable(
                        StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature(),
                        DeserializationFeature.FAIL_ON_TRAILING_TOKENS,
                        DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .featuresToDisable(DeserializationFeature.ACCEPT_FLOAT_AS_INT, MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .postConfigurer(mapper -> {
                    // a scalar is read only as its own JSON type: no "1" for 1, no 1.5 for 1, no 1 for true or "1"
                    fail(
                            mapper,
                            LogicalType.Integer,
                            CoercionInputShape.String,
                            CoercionInputShape.Float,
                            CoercionInputShape.Boolean,
                            CoercionInputShape.EmptyString);
                    fail(
                            mapper,
                            LogicalType.Float,
                            CoercionInputShape.String,
                            CoercionInputShape.Boolean,
                            CoercionInputShape.EmptyString);
                    fail(
                            mapper,
                            LogicalType.Boolean,
                            CoercionInputShape.String,
                            CoercionInputShape.Integer,
                            CoercionInputShape.Float,
                            CoercionInputShape.EmptyString);
                    fail(
                            mapper,
                            LogicalType.Textual,
                            CoercionInputShape.Integer,
                            CoercionInputShape.Float,
                            CoercionInputShape.Boolean);
                });
    }

    private static void fail(ObjectMapper mapper, LogicalType type, CoercionInputShape... shapes) {
        MutableCoercionConfig config = mapper.coercionConfigFor(type);
        for (CoercionInputShape shape : shapes) {
            config.setCoercion(shape, CoercionAction.Fail);
        }
    }
}
