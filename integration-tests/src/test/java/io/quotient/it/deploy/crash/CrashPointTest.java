package io.quotient.it.deploy.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CrashPointTest {

    @Test
    void readsThePointsAsWrittenOnTheCommandLine() {
        assertThat(CrashPoint.parse("after-workload-created")).isEqualTo(CrashPoint.AFTER_WORKLOAD_CREATED);
        assertThat(CrashPoint.parse(" Before-Eviction-Stop ")).isEqualTo(CrashPoint.BEFORE_EVICTION_STOP);
    }

    @Test
    void anUnknownPointIsRefusedNamingThePropertyAndTheValidValues() {
        assertThatThrownBy(() -> CrashPoint.parse("after-lunch"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("quotient.kubernetes.testing-crash-at is 'after-lunch'")
                .hasMessageContaining("after-workload-created or before-eviction-stop");
    }
}
