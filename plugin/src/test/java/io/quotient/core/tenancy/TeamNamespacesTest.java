package io.quotient.core.tenancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TeamNamespacesTest {

    @Test
    void aNamespaceBelongsToOneTeamExceptTheSharedOne() {
        Map<String, List<String>> byTeam = new LinkedHashMap<>();
        byTeam.put("a", List.of("ml", "quotient-system"));
        byTeam.put("b", List.of("quotient-system"));
        byTeam.put("c", null);
        TeamNamespaces namespaces = TeamNamespaces.of(byTeam, "quotient-system");

        assertThat(namespaces.teamOf("ml")).contains("a");
        assertThat(namespaces.teamOf("c")).contains("c");
        assertThat(namespaces.teamOf("quotient-system")).isEmpty();
        assertThat(namespaces.primaryNamespace("b")).isEqualTo("quotient-system");
        assertThat(namespaces.namespacesOf("unknown")).containsExactly("unknown");
        assertThat(namespaces.allNamespaces()).containsExactly("ml", "c");

        byTeam.put("d", List.of("ml"));
        assertThatThrownBy(() -> TeamNamespaces.of(byTeam, "quotient-system"))
                .hasMessage("namespace ml is given to team d but already belongs to team a; a namespace belongs to at"
                        + " most one team");
        assertThatThrownBy(() -> TeamNamespaces.of(Map.of("e", List.of()), null))
                .hasMessageContaining("empty list");
    }
}
