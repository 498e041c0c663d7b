package io.quotient.adapters.quota;

import io.quotient.core.scheduling.Team;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TeamsFileParserTest {

    @Test
    void readsTeamsWithDefaults() {
        Map<String, Team> teams = TeamsFileParser.parse("""
                teams:
                  - name: team-a
                    guaranteedGpus: 20
                    maxGpus: 30.5
                    overQuotaWeight: 2
                    priority: 3
                  - name: team-b
                    guaranteedGpus: 0.5
                """, "teams.yaml");

        assertThat(teams).containsOnlyKeys("team-a", "team-b");
        assertThat(teams.get("team-a")).isEqualTo(new Team("team-a", 20_000, 30_500, 2.0, 3));
        assertThat(teams.get("team-b")).isEqualTo(new Team("team-b", 500, Team.UNLIMITED, 1.0, 0));
    }

    @Test
    void namesTheLineOfAWrongValue() {
        assertThatThrownBy(() -> TeamsFileParser.parse("""
                teams:
                  - name: team-a
                    guaranteedGpus: twenty
                """, "teams.yaml"))
                .isInstanceOfSatisfying(ConfigFileException.class, e -> {
                    assertThat(e.line()).isEqualTo(3);
                    assertThat(e.reason()).contains("guaranteedGpus must be a number");
                    assertThat(e.getMessage()).startsWith("teams.yaml:3: ");
                });
    }

    @Test
    void rejectsMaxBelowGuarantee() {
        assertThatThrownBy(() -> TeamsFileParser.parse("""
                teams:
                  - name: team-a
                    guaranteedGpus: 8
                  - name: team-b
                    guaranteedGpus: 8
                    maxGpus: 4
                """, "teams.yaml"))
                .isInstanceOfSatisfying(ConfigFileException.class, e -> {
                    assertThat(e.line()).isEqualTo(4);
                    assertThat(e.reason()).contains("maxGpus").contains("below guaranteedGpus");
                });
    }

    @Test
    void rejectsMisspeltFieldsDuplicatesAndBadNames() {
        assertThatThrownBy(() -> TeamsFileParser.parse("teams:\n  - name: a\n    guaranteedGpu: 1\n", "f"))
                .hasMessageContaining("f:3").hasMessageContaining("unknown field 'guaranteedGpu'");
        assertThatThrownBy(() -> TeamsFileParser.parse(
                "teams:\n  - {name: a, guaranteedGpus: 1}\n  - {name: a, guaranteedGpus: 2}\n", "f"))
                .hasMessageContaining("f:3").hasMessageContaining("defined twice");
        assertThatThrownBy(() -> TeamsFileParser.parse("teams:\n  - {name: Team_A, guaranteedGpus: 1}\n", "f"))
                .hasMessageContaining("DNS label");
        assertThatThrownBy(() -> TeamsFileParser.parse("teams:\n  - {name: a, guaranteedGpus: -1}\n", "f"))
                .hasMessageContaining(">= 0");
    }

    @Test
    void reportsBrokenYamlWithItsLine() {
        assertThatThrownBy(() -> TeamsFileParser.parse("teams:\n  - name: a\n   guaranteedGpus: [1\n", "f"))
                .isInstanceOfSatisfying(ConfigFileException.class, e -> {
                    assertThat(e.line()).isGreaterThanOrEqualTo(2);
                    assertThat(e.reason()).startsWith("not valid YAML");
                });
        assertThatThrownBy(() -> TeamsFileParser.parse("", "f")).hasMessageContaining("empty");
        assertThatThrownBy(() -> TeamsFileParser.parse("other: 1\n", "f")).hasMessageContaining("unknown field 'other'");
    }
}
