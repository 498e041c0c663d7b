package io.quotient.it.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LingeringTest {

    private static List<String> look(Lingering lingering, long t, String... conditions) {
        lingering.look();
        for (String condition : conditions) {
            lingering.seen(condition, condition);
        }
        return lingering.endLook(t);
    }

    @Test
    void aConditionSeenLongerThanTheSettleTimeIsReportedOnce() {
        Lingering lingering = new Lingering(30_000);

        assertThat(look(lingering, 0, "orphan")).isEmpty();
        assertThat(look(lingering, 30_000, "orphan")).isEmpty();
        assertThat(look(lingering, 31_000, "orphan")).singleElement().asString().startsWith("orphan (for 31 s");
        assertThat(look(lingering, 40_000, "orphan")).isEmpty();
    }

    @Test
    void aConditionThatClearsStartsAgainFromZero() {
        Lingering lingering = new Lingering(30_000);

        look(lingering, 0, "orphan");
        look(lingering, 20_000);
        assertThat(look(lingering, 25_000, "orphan")).isEmpty();
        assertThat(look(lingering, 50_000, "orphan")).isEmpty();
        assertThat(look(lingering, 56_000, "orphan")).hasSize(1);
    }

    @Test
    void theClockStandsStillWhileAFaultTakesThePlaneOrTheLeaderAwayUntilTheServiceRecovers() {
        Lingering lingering = new Lingering(30_000);

        look(lingering, 0, "adoption");
        lingering.faultStarted("etcd-restart", 3_000);
        assertThat(look(lingering, 15_000, "adoption")).isEmpty();
        lingering.faultOver("etcd-restart", 20_000);
        assertThat(look(lingering, 34_000, "adoption"))
                .as("17 s of the 34 stood still")
                .isEmpty();
        assertThat(look(lingering, 47_000, "adoption"))
                .as("30 s outside the fault")
                .isEmpty();
        assertThat(look(lingering, 48_000, "adoption"))
                .singleElement()
                .asString()
                .contains("for 31 s outside faults, 48 s in all");
    }

    @Test
    void aFollowersFaultLeavesTheClockRunning() {
        Lingering lingering = new Lingering(30_000);

        look(lingering, 0, "reservation");
        lingering.faultStarted("pause-follower", 1_000);
        lingering.faultStarted("kill-follower", 2_000);
        assertThat(look(lingering, 31_000, "reservation")).hasSize(1);
    }

    @Test
    void overlappingFaultsStopTheClockOnceAndAFaultNeverOverLeavesItStopped() {
        Lingering lingering = new Lingering(30_000);

        look(lingering, 0, "orphan");
        lingering.faultStarted("kill-leader", 10_000);
        lingering.faultStarted("api-cut", 12_000);
        lingering.faultOver("kill-leader", 15_000);
        lingering.faultOver("api-cut", 20_000);
        lingering.faultOver("api-cut", 25_000); // a stray end changes nothing
        assertThat(look(lingering, 40_000, "orphan")).as("10 s stood still").isEmpty();
        assertThat(look(lingering, 41_000, "orphan")).hasSize(1);
    }
}
