package io.quotient.adapters.rest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import com.fasterxml.jackson.databind.MappingJsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.DataInput;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;

/**
 * The request reader's parsers, which say where a reader limit was hit. The reader throws its {@link
 * StreamConstraintsException} (a number of more than 1000 digits, a name or string too long) without the parser,
 * so its field was known only from the objects around it: a 1000-digit {@code gpu.count} was reported as {@code gpu},
 * a top-level {@code gpuDevices} as the body. Each parser here rethrows it as a {@link ReadLimitException} that
 * carries the parser, whose place is then the exact field ({@link JsonErrors}).
 */
final class LeafPathJsonFactory extends MappingJsonFactory {

    private static final long serialVersionUID = 1L;

    LeafPathJsonFactory() {
        super();
    }

    private LeafPathJsonFactory(JsonFactory source, ObjectMapper mapper) {
        super(source, mapper);
    }

    @Override
    public JsonFactory copy() {
        return new LeafPathJsonFactory(this, null);
    }

    @Override
    protected JsonParser _createParser(InputStream in, IOContext ctxt) throws IOException {
        return new LeafPathParser(super._createParser(in, ctxt));
    }

    @Override
    protected JsonParser _createParser(Reader r, IOContext ctxt) throws IOException {
        return new LeafPathParser(super._createParser(r, ctxt));
    }

    @Override
    protected JsonParser _createParser(char[] data, int offset, int len, IOContext ctxt, boolean recyclable)
            throws IOException {
        return new LeafPathParser(super._createParser(data, offset, len, ctxt, recyclable));
    }

    @Override
    protected JsonParser _createParser(byte[] data, int offset, int len, IOContext ctxt) throws IOException {
        return new LeafPathParser(super._createParser(data, offset, len, ctxt));
    }

    @Override
    protected JsonParser _createParser(DataInput input, IOContext ctxt) throws IOException {
        return new LeafPathParser(super._createParser(input, ctxt));
    }

    /** A reader limit hit by the parser {@link #getProcessor()}, standing where it was hit. */
    static final class ReadLimitException extends JsonParseException {

        private static final long serialVersionUID = 1L;

        private final transient StreamConstraintsException limit;

        ReadLimitException(JsonParser parser, StreamConstraintsException limit) {
            super(parser, limit.getOriginalMessage(), limit);
            this.limit = limit;
        }

        StreamConstraintsException limit() {
            return limit;
        }
    }

    private static final class LeafPathParser extends JsonParserDelegate {

        LeafPathParser(JsonParser parser) {
            super(parser);
        }

        @Override
        public JsonToken nextToken() throws IOException {
            try {
                return super.nextToken();
            } catch (StreamConstraintsException e) {
                throw new ReadLimitException(this, e);
            }
        }

        @Override
        public JsonToken nextValue() throws IOException {
            try {
                return super.nextValue();
            } catch (StreamConstraintsException e) {
                throw new ReadLimitException(this, e);
            }
        }
    }
}
