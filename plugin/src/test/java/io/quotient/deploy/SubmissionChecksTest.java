package io.quotient.deploy;

import io.quotient.core.scheduling.RequestException;
import io.quotient.deploy.port.JobSubmission;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SubmissionChecksTest {

    private static final Set<String> TEMPLATES = Set.of("job", "pytorchjob", "notebook");

    @Test
    void acceptsAPlainSubmission() {
        assertThatCode(() -> SubmissionChecks.check(with(Map.of("app", "x"), Map.of("EPOCHS", "3")), TEMPLATES))
                .doesNotThrowAnyException();
    }

    @Test
    void refusesAnUnknownTemplateNamingTheKnownOnes() {
        JobSubmission s = new JobSubmission(JobFixtures.wholeGpus("team-a", "j", 1).request(), "tensorflow", null,
                null, null, null, null);
        assertThatThrownBy(() -> SubmissionChecks.check(s, TEMPLATES))
                .isInstanceOfSatisfying(RequestException.class, e ->
                        org.assertj.core.api.Assertions.assertThat(e.field()).isEqualTo("template"))
                .hasMessageContaining("job, notebook, pytorchjob");
    }

    @Test
    void refusesBadLabelsAndEnv() {
        assertThatThrownBy(() -> SubmissionChecks.check(with(Map.of("quotient.io/team", "b"), Map.of()), TEMPLATES))
                .hasMessageContaining("labels.quotient.io/team").hasMessageContaining("set by Quotient");
        assertThatThrownBy(() -> SubmissionChecks.check(with(Map.of("bad key!", "v"), Map.of()), TEMPLATES))
                .hasMessageContaining("not a valid Kubernetes label key");
        assertThatThrownBy(() -> SubmissionChecks.check(with(Map.of("k", "-v-"), Map.of()), TEMPLATES))
                .hasMessageContaining("not a valid Kubernetes label value");
        assertThatThrownBy(() -> SubmissionChecks.check(with(Map.of(), Map.of("1X", "v")), TEMPLATES))
                .hasMessageContaining("env.1X");
    }

    @Test
    void refusesARuntimeThatIsNoObjectName() {
        JobSubmission plain = with(Map.of(), Map.of());
        JobSubmission bad = JobSubmission.onRuntime(plain.request(), "job", "img", List.of(), List.of(), Map.of(), Map.of(),
                plain.pod(), "Torch_Distributed");

        assertThatThrownBy(() -> SubmissionChecks.check(bad, TEMPLATES))
                .isInstanceOfSatisfying(RequestException.class, e ->
                        org.assertj.core.api.Assertions.assertThat(e.field()).isEqualTo("runtime"))
                .hasMessageContaining("'Torch_Distributed' is not a Kubernetes object name");
        SubmissionChecks.check(JobSubmission.onRuntime(plain.request(), "job", "img", List.of(), List.of(), Map.of(),
                Map.of(), plain.pod(), "torch-distributed.v2"), TEMPLATES);
    }

    private static JobSubmission with(Map<String, String> labels, Map<String, String> env) {
        return new JobSubmission(JobFixtures.wholeGpus("team-a", "j", 1).request(), "job", "img", List.of(), List.of(),
                labels, env);
    }
}
