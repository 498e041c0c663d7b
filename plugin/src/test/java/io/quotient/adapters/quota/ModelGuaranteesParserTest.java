package io.quotient.adapters.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.ModelGroup;
import io.quotient.core.model.ModelGuarantee;
import io.quotient.core.model.Team;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The teams file's {@code guarantees}: guarantees and maxima per GPU model group, and the errors that refuse it. */
class ModelGuaranteesParserTest {

    private static ConfigFileException refused(String text) {
        try {
            TeamsFileParser.parse(text, "teams.yaml");
        } catch (ConfigFileException e) {
            return e;
        }
        throw new AssertionError("the file was accepted:\n" + text);
    }

    @Test
    void splitsATeamsGuaranteeByGroupInTheDeclaredOrder() {
        Map<String, Team> teams = TeamsFileParser.parse("""
                teams:
                  - name: team-a
                    guarantees:
                      - models: [H100-80GB]
                        gpus: 4
                        maxGpus: 6
                      - models: [A100-SXM4-80GB, A100-SXM4-40GB]
                        gpus: 8
                """, "teams.yaml");
        Team a = teams.get("team-a");
        assertThat(a.guaranteedMilli()).isEqualTo(12_000);
        assertThat(a.splitsGuarantee()).isTrue();
        assertThat(a.modelGuarantees().groups())
                .containsExactly(
                        new ModelGuarantee(ModelGroup.of("H100-80GB"), 4000, 6000),
                        new ModelGuarantee(ModelGroup.of("A100-SXM4-80GB", "A100-SXM4-40GB"), 8000, Team.UNLIMITED));
    }

    @Test
    void aFlatGuaranteeWithAModelMaximumStaysAnyModel() {
        Team a = TeamsFileParser.parse("""
                departments:
                  - name: research
                    guaranteedGpus: 16
                    guarantees:
                      - models: [H100-80GB]
                        maxGpus: 4
                    teams:
                      - name: team-a
                        guaranteedGpus: 8
                        guarantees:
                          - models: [H100-80GB]
                            maxGpus: 2
                """, "teams.yaml").get("team-a");
        assertThat(a.guaranteedMilli()).isEqualTo(8000);
        assertThat(a.splitsGuarantee()).isFalse();
        assertThat(a.department().modelGuarantees().groups().get(0).maxMilli()).isEqualTo(4000);
    }

    @Test
    void aGuaranteeThatIsNotTheSumOfItsGroupsIsRefused() {
        ConfigFileException e = refused("""
                teams:
                  - name: team-a
                    guaranteedGpus: 10
                    guarantees:
                      - models: [H100-80GB]
                        gpus: 4
                """);
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.reason())
                .isEqualTo("team team-a: guaranteedGpus (10.0) must equal the sum of guarantees[].gpus (4.0),"
                        + " or be left out");
    }

    @Test
    void overlappingGroupsInOneTeamAreRefused() {
        ConfigFileException e = refused("""
                teams:
                  - name: team-a
                    guarantees:
                      - models: [H100-80GB]
                        gpus: 4
                      - models: [A100-SXM4-80GB, H100-80GB]
                        gpus: 2
                """);
        assertThat(e.reason()).contains("guarantees[1].models").contains("overlaps guarantees[0].models");
    }

    @Test
    void groupsThatPartlyOverlapAcrossTeamsAreRefused() {
        ConfigFileException e = refused("""
                teams:
                  - name: team-a
                    guarantees:
                      - models: [H100-80GB]
                        gpus: 4
                  - name: team-b
                    guarantees:
                      - models: [H100-80GB, A100-SXM4-80GB]
                        gpus: 2
                """);
        assertThat(e.reason())
                .contains("team team-b")
                .contains("partly overlap")
                .contains("cluster-wide");
    }

    @Test
    void negativeNumbersUnknownKeysAndMissingModelsNameTheField() {
        assertThat(refused("""
                teams:
                  - name: team-a
                    guarantees:
                      - models: [H100-80GB]
                        gpus: -1
                """).reason()).contains("guarantees[0].gpus must be a finite number >= 0");
        assertThat(refused("""
                teams:
                  - name: team-a
                    guarantees:
                      - models: [H100-80GB]
                        gpu: 1
                """).reason()).contains("'gpu'");
        assertThat(refused("""
                teams:
                  - name: team-a
                    guarantees:
                      - gpus: 1
                """).reason()).contains("guarantees[0] needs 'models'");
        assertThat(refused("""
                teams:
                  - name: team-a
                    guarantees:
                      - models: [H100-80GB]
                        gpus: 4
                        maxGpus: 2
                """).reason()).contains("guarantees[0]: maxGpus (2.0) is below gpus (4.0)");
    }

    /**
     * Hostile amounts and names: 1e300 GPUs was Long.MAX_VALUE milli-GPU (two groups of it summed to a negative
     * guarantee, refused as "must not be negative"; one team of it was accepted), 0.0001 silently became 0, and a
     * model no node label can hold ('A100 80GB', 300 characters) guaranteed GPUs no node ever has.
     */
    @Test
    void amountsBeyondAnyClusterAndModelsNoNodeCanCarryAreRefusedNamingTheField() {
        assertThat(refused("""
                teams:
                  - name: team-a
                    guarantees:
                      - models: [H100-80GB]
                        gpus: 1e300
                      - models: [A100-SXM4-80GB]
                        gpus: 1e300
                """).reason()).contains("guarantees[0].gpus must be at most 1000000 GPUs");
        assertThat(refused("teams:\n  - {name: team-a, guaranteedGpus: 1e300}\n")
                        .reason())
                .contains("guaranteedGpus must be at most 1000000 GPUs");
        assertThat(refused("teams:\n  - {name: team-a, guaranteedGpus: 1, maxGpus: 9223372036854775807}\n")
                        .reason())
                .contains("maxGpus must be at most 1000000 GPUs");
        assertThat(refused("teams:\n  - {name: team-a, guaranteedGpus: 0.0001}\n")
                        .reason())
                .contains("guaranteedGpus is below the smallest share, 0.001 GPU, was 0.0001");
        for (String model : new String[] {"\"A100 80GB\"", "\"" + "x".repeat(300) + "\"", "\"../H100\""}) {
            assertThat(refused("teams:\n  - name: team-a\n    guarantees:\n      - models: [" + model
                                    + "]\n        gpus: 1\n")
                            .reason())
                    .as(model)
                    .contains("guarantees[0].models names")
                    .contains("is not a GPU model name");
        }
        assertThat(TeamsFileParser.parse("teams:\n  - {name: team-a, guaranteedGpus: 1000000}\n", "f")
                        .get("team-a")
                        .guaranteedMilli())
                .isEqualTo(1_000_000_000L);
    }
}
