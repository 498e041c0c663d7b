package io.quotient.adapters.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.model.Department;
import io.quotient.core.model.Team;
import io.quotient.core.model.WithinTeamPreemption;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

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
                .hasMessageContaining("f:3")
                .hasMessageContaining("unknown field 'guaranteedGpu'");
        assertThatThrownBy(() -> TeamsFileParser.parse(
                        "teams:\n  - {name: a, guaranteedGpus: 1}\n  - {name: a, guaranteedGpus: 2}\n", "f"))
                .hasMessageContaining("f:3")
                .hasMessageContaining("defined twice");
        assertThatThrownBy(() -> TeamsFileParser.parse("teams:\n  - {name: Team_A, guaranteedGpus: 1}\n", "f"))
                .hasMessageContaining("DNS label");
        assertThatThrownBy(() -> TeamsFileParser.parse("teams:\n  - {name: a, guaranteedGpus: -1}\n", "f"))
                .hasMessageContaining(">= 0");
    }

    /** A priority beyond an int was cut to its low 32 bits: 99999999999 was read as 1215752191. */
    @Test
    void aPriorityBeyondItsRangeIsRefusedNotWrapped() {
        assertThatThrownBy(() -> TeamsFileParser.parse(
                        "teams:\n  - name: a\n    guaranteedGpus: 1\n    priority: 99999999999\n", "f"))
                .hasMessageContaining("f:4")
                .hasMessageContaining("priority must be from -2147483648 to 2147483647, was 99999999999");
        assertThat(TeamsFileParser.parse("teams:\n  - {name: a, guaranteedGpus: 1, priority: 2147483647}\n", "f")
                        .get("a")
                        .priority())
                .isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void reportsBrokenYamlWithItsLine() {
        assertThatThrownBy(() -> TeamsFileParser.parse("teams:\n  - name: a\n   guaranteedGpus: [1\n", "f"))
                .isInstanceOfSatisfying(ConfigFileException.class, e -> {
                    assertThat(e.line()).isGreaterThanOrEqualTo(2);
                    assertThat(e.reason()).startsWith("not valid YAML");
                });
        assertThatThrownBy(() -> TeamsFileParser.parse("", "f")).hasMessageContaining("empty");
        assertThatThrownBy(() -> TeamsFileParser.parse("other: 1\n", "f"))
                .hasMessageContaining("unknown field 'other'");
    }

    /** Issue 31: a team may lower the cluster's maximum minimum runtime for its jobs. */
    @Test
    void readsATeamsMaximumMinimumRuntime() {
        Map<String, Team> teams = TeamsFileParser.parse("""
                teams:
                  - {name: a, guaranteedGpus: 1, maxMinRuntimeSeconds: 600}
                  - {name: b, guaranteedGpus: 1}
                """, "f");
        assertThat(teams.get("a").maxMinRuntime()).isEqualTo(Duration.ofMinutes(10));
        assertThat(teams.get("b").maxMinRuntime()).isNull();
        assertThatThrownBy(() -> TeamsFileParser.parse(
                        "teams:\n  - {name: a, guaranteedGpus: 1," + " maxMinRuntimeSeconds: -1}\n", "f"))
                .hasMessageContaining("maxMinRuntimeSeconds must be >= 0");
        assertThatThrownBy(() -> TeamsFileParser.parse(
                        "teams:\n  - {name: a, guaranteedGpus: 1," + " maxMinRuntimeSeconds: 1h}\n", "f"))
                .hasMessageContaining("maxMinRuntimeSeconds must be a whole number");
    }

    @Test
    void readsDepartmentsBesideLooseTeamsAndThePreemptionSettings() {
        Map<String, Team> teams = TeamsFileParser.parse("""
                teams:
                  - name: ops
                    guaranteedGpus: 2
                    preemptWithinTeam: Never
                    fairShareReclaim: false
                departments:
                  - name: research
                    guaranteedGpus: 16
                    maxGpus: 24
                    overQuotaWeight: 2
                    teams:
                      - name: vision
                        guaranteedGpus: 8
                      - name: nlp
                        guaranteedGpus: 6
                """, "teams.yaml");

        Department research = new Department("research", 16_000, 24_000, 2.0);
        assertThat(teams).containsOnlyKeys("ops", "vision", "nlp");
        assertThat(teams.get("ops"))
                .isEqualTo(new Team("ops", 2000, Team.UNLIMITED, 1.0, 0, WithinTeamPreemption.NEVER, false, null));
        assertThat(teams.get("vision"))
                .isEqualTo(new Team("vision", 8000, Team.UNLIMITED, 1.0, 0).withDepartment(research));
        assertThat(teams.get("nlp").department()).isEqualTo(research);
    }

    @Test
    void rejectsBadDepartmentsAndSettingsWithTheirLine() {
        assertThatThrownBy(() -> TeamsFileParser.parse("""
                departments:
                  - name: d
                    guaranteedGpus: 4
                    teams:
                      - {name: a, guaranteedGpus: 1}
                  - name: e
                    guaranteedGpus: 4
                    teams:
                      - {name: a, guaranteedGpus: 1}
                """, "f"))
                .hasMessageContaining("f:9")
                .hasMessageContaining("team 'a' is defined twice");
        assertThatThrownBy(() -> TeamsFileParser.parse("departments:\n  - {name: d, guaranteedGpus: 4}\n", "f"))
                .hasMessageContaining("f:2")
                .hasMessageContaining("needs 'name', 'guaranteedGpus' and 'teams'");
        assertThatThrownBy(() -> TeamsFileParser.parse(
                        "departments:\n  - {name: d, guaranteedGpus: 4, maxGpus: 2, teams: []}\n", "f"))
                .hasMessageContaining("department d: maxGpus (2.0) is below guaranteedGpus (4.0)");
        assertThatThrownBy(() -> TeamsFileParser.parse(
                        "teams:\n  - {name: a, guaranteedGpus: 1, preemptWithinTeam: Sometimes}\n", "f"))
                .hasMessageContaining("f:2")
                .hasMessageContaining("use Never or LowerPriority");
        assertThatThrownBy(() ->
                        TeamsFileParser.parse("teams:\n  - {name: a, guaranteedGpus: 1, fairShareReclaim: yes}\n", "f"))
                .hasMessageContaining("fairShareReclaim must be true or false");
    }
}
