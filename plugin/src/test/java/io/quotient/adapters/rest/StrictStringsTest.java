package io.quotient.adapters.rest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A surrogate counts as text only as the high half followed by the low half of one pair. */
class StrictStringsTest {

    @ParameterizedTest
    @CsvSource({
        "'plain', -1",
        "'\uD83D\uDE00 a pair', -1",
        "'a\uD800', 1", // a high half at the end
        "'\uDE00x', 0", // a low half alone
        "'\uDE00\uD83D', 0", // a pair's halves the wrong way round
        "'\uD83D\uD83D\uDE00', 0", // a high half before a whole pair
        "'\uD83D\uDE00\uDE00', 2" // a low half after a whole pair
    })
    void findsTheFirstSurrogateThatIsNoHalfOfAPair(String text, int index) {
        assertThat(StrictStrings.loneSurrogate(text)).isEqualTo(index);
    }
}
