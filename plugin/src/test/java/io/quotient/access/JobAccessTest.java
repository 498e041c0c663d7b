package io.quotient.access;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.tenancy.TeamNamespaces;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JobAccessTest {

    private final TeamNamespaces namespaces = TeamNamespaces.of(Map.of("team-a", List.of("ml-a", "ml-a2")), null);

    @Test
    void eachMethodAsksItsVerbOnGpuJobsInTheTeamsNamespace() {
        assertThat(JobAccess.requests("POST", "team-a", null, namespaces, Optional.empty()))
                .containsExactly(new AccessRequest("create", "quotient.io", "gpujobs", "ml-a", null));
        assertThat(JobAccess.requests("GET", "team-a", "train", namespaces, Optional.of("ml-a2")))
                .containsExactly(new AccessRequest("get", "quotient.io", "gpujobs", "ml-a2", "train"));
        assertThat(JobAccess.requests("DELETE", "team-a", "train", namespaces, Optional.empty()))
                .containsExactly(new AccessRequest("delete", "quotient.io", "gpujobs", "ml-a", "train"));
        assertThat(JobAccess.requests("GET", "team-a", null, namespaces, Optional.empty()))
                .containsExactly(
                        new AccessRequest("list", "quotient.io", "gpujobs", "ml-a", null),
                        new AccessRequest("list", "quotient.io", "gpujobs", "ml-a2", null));
        assertThat(JobAccess.requests("GET", "team-b", null, namespaces, Optional.empty()))
                .as("a team without namespaces has one named after it")
                .containsExactly(new AccessRequest("list", "quotient.io", "gpujobs", "team-b", null));
    }

    @Test
    void describesWhatWasRefused() {
        assertThat(new AccessRequest("create", "quotient.io", "gpujobs", "team-a", null).describe())
                .isEqualTo("create gpujobs.quotient.io in namespace team-a");
    }
}
