package io.quotient.adapters.rest;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.accept.ContentNegotiationStrategy;
import org.springframework.web.accept.HeaderContentNegotiationStrategy;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.servlet.config.annotation.ContentNegotiationConfigurer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The types a request's {@code Accept} header accepts, with those it refuses left out: a range with {@code q=0} is
 * "not acceptable" (RFC 9110, section 12.4.2), but the mappings' negotiation matches types by name alone, so {@code
 * Accept: application/json;q=0} was answered in JSON (and a job created). An {@code Accept} header whose every range
 * has {@code q=0} accepts nothing, and the route is refused with 406 before any handler runs ({@link
 * NegotiationErrors}). A range refused beside a wider one accepted ({@code application/json;q=0, *}{@code /*}) is
 * left to the wider one.
 *
 * <p>A range that names a charset other than UTF-8 ({@code application/json; charset=utf-16}, {@code text/csv;
 * charset=iso-8859-1}) is refused the same way: every answer is written in UTF-8 (RFC 8259 for JSON; the usage report
 * too), and the name matched while the writer could not honour the charset, so the job was created and the answer
 * was a 500, or the CSV came in UTF-8 labelled as what was asked.
 */
@Configuration(proxyBeanMethods = false)
public class AcceptedTypes implements WebMvcConfigurer, ContentNegotiationStrategy {

    /** A type no mapping produces: what a request that accepts nothing is said to accept. */
    private static final MediaType NOTHING = new MediaType("application", "x-nothing-acceptable");

    private final HeaderContentNegotiationStrategy header = new HeaderContentNegotiationStrategy();

    @Override
    public void configureContentNegotiation(ContentNegotiationConfigurer configurer) {
        configurer.strategies(List.of(this));
    }

    @Override
    public List<MediaType> resolveMediaTypes(NativeWebRequest request) throws HttpMediaTypeNotAcceptableException {
        List<MediaType> asked = header.resolveMediaTypes(request);
        if (asked == MEDIA_TYPE_ALL_LIST) {
            return asked;
        }
        List<MediaType> accepted = asked.stream()
                .filter(type -> type.getQualityValue() > 0 && !namesOtherCharset(type))
                .toList();
        return accepted.isEmpty() ? List.of(NOTHING) : accepted;
    }

    /** Whether the range asks for a charset the service does not write (anything but UTF-8, whichever alias names it). */
    static boolean namesOtherCharset(MediaType type) {
        Charset charset = type.getCharset();
        return charset != null && !charset.equals(StandardCharsets.UTF_8);
    }
}
