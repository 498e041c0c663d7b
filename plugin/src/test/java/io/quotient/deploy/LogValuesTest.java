package io.quotient.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Values users supply are logged on one line, their control characters visible. */
class LogValuesTest {

    @Test
    void controlCharactersAreShownAsEscapesOnOneLine() {
        String escaped = LogValues.escape("team-a\r\nERROR forged\u0000\t\u001b[31m\u2028end");
        assertThat(escaped).isEqualTo("team-a\\r\\nERROR forged\\u0000\\t\\u001b[31m\\u2028end");
        assertThat(escaped).doesNotContain("\n", "\r", "\u0000", "\u2028");
    }

    @Test
    void aBackslashIsDoubledSoAnEscapeWrittenByTheUserCannotPassForOne() {
        assertThat(LogValues.escape("a\\nb")).isEqualTo("a\\\\nb");
    }

    @Test
    void longValuesAreCutSayingHowMuchWasLeftOut() {
        String escaped = LogValues.escape("x".repeat(LogValues.MAX_LENGTH + 10));
        assertThat(escaped).startsWith("x".repeat(LogValues.MAX_LENGTH)).endsWith("...(10 more characters)");
        assertThat(LogValues.escape(null)).isEqualTo("null");
        assertThat(LogValues.escape("plain")).isEqualTo("plain");
    }
}
