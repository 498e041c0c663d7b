package io.quotient.adapters.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.tenancy.TeamNamespaces;
import java.util.List;
import org.junit.jupiter.api.Test;

class TeamNamespacesParserTest {

    @Test
    void aTeamWithoutNamespacesGetsOneNamedAfterIt() {
        String text = """
                teams:
                  - name: team-a
                    guaranteedGpus: 4
                    namespaces: [kubeflow-alice, kubeflow-bob]
                  - name: team-b
                    guaranteedGpus: 4
                """;
        TeamNamespaces namespaces = TeamNamespacesParser.parse(text, "teams.yaml", "quotient-system");
        assertThat(namespaces.namespacesOf("team-a")).containsExactly("kubeflow-alice", "kubeflow-bob");
        assertThat(namespaces.primaryNamespace("team-a")).isEqualTo("kubeflow-alice");
        assertThat(namespaces.namespacesOf("team-b")).containsExactly("team-b");
        assertThat(namespaces.teamOf("kubeflow-bob")).contains("team-a");
        assertThat(namespaces.teamOf("team-b")).contains("team-b");
        assertThat(namespaces.teamOf("default")).isEmpty();
        // the quotas of the same file still parse: the field is known to the quota parser
        assertThat(TeamsFileParser.parse(text, "teams.yaml")).containsOnlyKeys("team-a", "team-b");
    }

    @Test
    void teamsOfDepartmentsHaveNamespacesToo() {
        String text = """
                teams:
                  - name: ops
                    guaranteedGpus: 2
                departments:
                  - name: research
                    guaranteedGpus: 8
                    teams:
                      - name: vision
                        guaranteedGpus: 4
                        namespaces: [kubeflow-vision]
                      - name: nlp
                        guaranteedGpus: 4
                """;
        TeamNamespaces namespaces = TeamNamespacesParser.parse(text, "teams.yaml", "quotient-system");
        assertThat(namespaces.namespacesOf("vision")).containsExactly("kubeflow-vision");
        assertThat(namespaces.namespacesOf("nlp")).containsExactly("nlp");
        assertThat(namespaces.namespacesOf("ops")).containsExactly("ops");
        assertThat(TeamsFileParser.parse(text, "teams.yaml")).containsOnlyKeys("ops", "vision", "nlp");
        assertThatThrownBy(() ->
                        TeamNamespacesParser.parse(text.replace("[kubeflow-vision]", "[ops]"), "teams.yaml", null))
                .hasMessageContaining("teams.yaml:")
                .hasMessageContaining("ops");
    }

    @Test
    void aNamespaceOfTwoTeamsIsAnErrorWithFileAndLine() {
        String text = """
                teams:
                  - name: team-a
                    guaranteedGpus: 4
                    namespaces: [ml]
                  - name: team-b
                    guaranteedGpus: 4
                    namespaces:
                      - ml
                """;
        assertThatThrownBy(() -> TeamNamespacesParser.parse(text, "teams.yaml", null))
                .isInstanceOf(ConfigFileException.class)
                .hasMessage("teams.yaml:8: namespace ml of team team-b already belongs to team team-a; a namespace"
                        + " belongs to at most one team");
    }

    @Test
    void theDefaultNamespaceOfOneTeamMayNotBeListedByAnother() {
        String text = "teams:\n  - name: team-a\n    guaranteedGpus: 1\n    namespaces: [team-b]\n"
                + "  - name: team-b\n    guaranteedGpus: 1\n";
        assertThatThrownBy(() -> TeamNamespacesParser.parse(text, "t.yaml", null))
                .hasMessageStartingWith("t.yaml:5: namespace team-b of team team-b already belongs to team team-a");
    }

    @Test
    void badNamesAndEmptyListsAreRefused() {
        assertThatThrownBy(() -> TeamNamespacesParser.parse(
                        "teams:\n  - name: a\n    guaranteedGpus: 1\n    namespaces: [Bad_Name]\n", "t.yaml", null))
                .hasMessageStartingWith("t.yaml:4: namespace 'Bad_Name' of team a is not a valid namespace name");
        assertThatThrownBy(() -> TeamNamespacesParser.parse(
                        "teams:\n  - name: a\n    guaranteedGpus: 1\n    namespaces: []\n", "t.yaml", null))
                .hasMessageStartingWith("t.yaml:4: namespaces of team a must be a non-empty list");
    }

    @Test
    void theServiceNamespaceMayBeSharedAsInEarlierVersions() {
        String text = "teams:\n  - name: a\n    guaranteedGpus: 1\n    namespaces: [quotient-system]\n"
                + "  - name: b\n    guaranteedGpus: 1\n    namespaces: [quotient-system, b-extra]\n";
        TeamNamespaces namespaces = TeamNamespacesParser.parse(text, "t.yaml", "quotient-system");
        assertThat(namespaces.namespacesOf("b")).isEqualTo(List.of("quotient-system", "b-extra"));
        assertThat(namespaces.isShared("quotient-system")).isTrue();
        assertThat(namespaces.teamOf("quotient-system")).isEmpty();
        assertThat(namespaces.teamOf("b-extra")).contains("b");
    }
}
