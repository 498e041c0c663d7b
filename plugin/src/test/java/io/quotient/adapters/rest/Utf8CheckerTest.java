package io.quotient.adapters.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** UTF-8 as RFC 3629 allows it: every form the JSON reader decoded leniently is found at its byte. */
class Utf8CheckerTest {

    static Stream<Arguments> broken() {
        return Stream.of(
                Arguments.of(new int[] {'a', 0xC0, 0xAF}, 1), // overlong '/'
                Arguments.of(new int[] {0xC1, 0xBF}, 0), // overlong of a one-byte character
                Arguments.of(new int[] {0xE0, 0x80, 0xAF}, 1), // overlong '/' in three bytes
                Arguments.of(new int[] {0xF0, 0x80, 0x80, 0xAF}, 1), // overlong '/' in four bytes
                Arguments.of(new int[] {0xED, 0xA0, 0x80}, 1), // a surrogate (U+D800)
                Arguments.of(new int[] {0xF4, 0x90, 0x80, 0x80}, 1), // beyond U+10FFFF
                Arguments.of(new int[] {0xF5, 0x80, 0x80, 0x80}, 0), // no lead byte of UTF-8
                Arguments.of(new int[] {0xFF}, 0),
                Arguments.of(new int[] {'a', 'b', 0x80}, 2), // a continuation without its lead
                Arguments.of(new int[] {0xE2, 'a'}, 1)); // a lead without its continuation
    }

    @ParameterizedTest
    @MethodSource("broken")
    void aSequenceUtf8DoesNotAllowIsFoundAtItsByte(int[] sequence, long at) {
        byte[] bytes = new byte[sequence.length];
        for (int i = 0; i < sequence.length; i++) {
            bytes[i] = (byte) sequence[i];
        }
        assertThat(new Utf8Checker().check(bytes, 0, bytes.length)).isEqualTo(at);
    }

    @ParameterizedTest
    @ValueSource(strings = {"plain", "é", "€", "\uD834\uDD1E", "\uFFFF", "\uD7FF", "\uE000", "\u0080", "\uDBFF\uDFFF"})
    void everyCharacterIsAcceptedAlsoWhenItsBytesArriveOneByOne(String text) {
        byte[] bytes = ("[\"" + text + "\"]").getBytes(StandardCharsets.UTF_8);
        Utf8Checker whole = new Utf8Checker();
        assertThat(whole.check(bytes, 0, bytes.length)).isEqualTo(-1);
        assertThat(whole.endsInsideACharacter()).isFalse();
        Utf8Checker pieces = new Utf8Checker();
        for (int i = 0; i < bytes.length; i++) {
            assertThat(pieces.check(bytes, i, 1)).as("byte %d", i).isEqualTo(-1);
        }
        assertThat(pieces.position()).isEqualTo(bytes.length);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void aStreamCutInsideACharacterIsSaidToBe(int kept) {
        byte[] bytes = "\uD834\uDD1E".getBytes(StandardCharsets.UTF_8);
        Utf8Checker checker = new Utf8Checker();
        assertThat(checker.check(bytes, 0, kept)).isEqualTo(-1);
        assertThat(checker.endsInsideACharacter()).isTrue();
    }
}
