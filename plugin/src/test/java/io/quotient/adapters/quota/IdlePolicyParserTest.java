package io.quotient.adapters.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.model.IdleAction;
import io.quotient.core.model.IdlePolicy;
import io.quotient.core.model.JobKind;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The teams file's {@code idle} key: what it means, its defaults, and each mistake refused by field and line. */
class IdlePolicyParserTest {

    private static Team team(String idle) {
        return TeamsFileParser.parse(
                        "teams:\n  - name: lab\n    guaranteedGpus: 2\n"
                                + (idle == null ? "" : "    idle: " + idle + "\n"),
                        "teams.yaml")
                .get("lab");
    }

    @Test
    void readsThePolicyOfTheIssue() {
        IdlePolicy p = team("{kinds: [notebook, train], after: 30m, warnAfter: 20m, threshold: 5%,"
                        + " onlyWhenOthersWait: false, action: stop}")
                .idle();
        assertThat(p)
                .isEqualTo(new IdlePolicy(
                        Set.of(JobKind.NOTEBOOK, JobKind.TRAIN),
                        Duration.ofMinutes(30),
                        Duration.ofMinutes(20),
                        0.05,
                        false,
                        IdleAction.STOP));
    }

    @Test
    void offWithoutTheKeyAndNotebooksWithDefaultsWhenEmpty() {
        assertThat(team(null).idle()).isEqualTo(IdlePolicy.OFF);
        assertThat(team(null).idle().watches(JobKind.NOTEBOOK)).isFalse();

        IdlePolicy p = team("{}").idle();
        assertThat(p.kinds()).containsExactly(JobKind.NOTEBOOK);
        assertThat(p.after()).isEqualTo(Duration.ofMinutes(30));
        assertThat(p.warnAfter()).isEqualTo(Duration.ofMinutes(20));
        assertThat(p.threshold()).isEqualTo(0.05);
        assertThat(p.onlyWhenOthersWait()).isTrue();
        assertThat(p.action()).isEqualTo(IdleAction.PREEMPT);
        assertThat(team("{after: 90s, threshold: 2.5}").idle().threshold()).isEqualTo(0.025);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{after: 30m, idleFor: 1h}|unknown field 'idleFor'",
                "{after: 10m, warnAfter: 20m}|idle.warnAfter (PT20M) must not be longer than idle.after (PT10M)",
                "{threshold: 101%}|idle.threshold must be a utilisation between 0% and 100%, was '101%'",
                "{threshold: -1%}|idle.threshold must be a utilisation between 0% and 100%",
                "{kinds: [notebook, jupyter]}|idle.kinds: each kind must be one of train, notebook or inference,"
                        + " was 'jupyter'",
                "{kinds: []}|idle.kinds must be a non-empty list",
                "{action: delete}|idle.action must be stop or preempt, was 'delete'",
                "{after: 30 minutes}|idle.after must be a duration such as 90s, 30m or 2h",
                "{onlyWhenOthersWait: sometimes}|idle.onlyWhenOthersWait must be true or false",
                "notebook|idle must be a mapping of fields",
            })
    void refusesEachMistakeNamingTheFieldAndLine(String idle, String message) {
        assertThatThrownBy(() -> team(idle))
                .isInstanceOfSatisfying(
                        ConfigFileException.class,
                        e -> assertThat(e.getMessage()).contains("teams.yaml:4"))
                .hasMessageContaining(message);
    }
}
