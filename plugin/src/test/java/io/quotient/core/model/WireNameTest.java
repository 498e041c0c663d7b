package io.quotient.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WireNameTest {

    @ParameterizedTest
    @ValueSource(strings = {"notebook", "NOTEBOOK", "NoteBook"})
    void theNameInAnyAsciiCaseNamesIt(String text) {
        assertThat(WireName.matches("notebook", text)).isTrue();
        assertThat(JobKind.fromWireName(text)).isEqualTo(JobKind.NOTEBOOK);
    }

    /** Each of these was read as a name before: trim dropped the NUL and spaces, case folding took other alphabets. */
    @ParameterizedTest
    @ValueSource(strings = {"notebook\u0000", " notebook", "notebook\n", "noteboo\u212A", "notebook\u200B", ""})
    void aValueThatOnlyLooksLikeTheNameDoesNot(String text) {
        assertThat(WireName.matches("notebook", text)).isFalse();
        assertThatThrownBy(() -> JobKind.fromWireName(text)).hasMessageContaining("train, notebook or inference");
    }

    @ParameterizedTest
    @ValueSource(strings = {"stop", "Stop", "preempt"})
    void anIdleActionIsReadLikewise(String text) {
        assertThat(IdleAction.fromWireName(text).wireName()).isEqualTo(text.toLowerCase(java.util.Locale.ROOT));
    }

    @ParameterizedTest
    @ValueSource(strings = {"st\u0131p", "stop\t", "\u017Ftop"})
    void anIdleActionThatOnlyLooksLikeOneIsRefused(String text) {
        assertThatThrownBy(() -> IdleAction.fromWireName(text)).hasMessageContaining("must be stop or preempt");
    }

    @org.junit.jupiter.api.Test
    void aMissingValueNamesNothing() {
        assertThat(WireName.matches("train", null)).isFalse();
    }
}
