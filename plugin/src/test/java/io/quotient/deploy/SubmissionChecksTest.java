package io.quotient.deploy;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.request.GangAsk;
import io.quotient.core.request.GpuAsk;
import io.quotient.core.request.JobRequestInput;
import io.quotient.core.request.RequestException;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.Metadata;
import io.quotient.deploy.port.TemplateTraits;
import io.quotient.deploy.port.WorkloadRef;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class SubmissionChecksTest {

    private static final Map<String, TemplateTraits> TEMPLATES = Map.of(
            "job",
            new TemplateTraits(null, false, false),
            "pytorchjob",
            new TemplateTraits(null, true, false),
            "notebook",
            new TemplateTraits(false, false, false),
            "trainjob",
            new TemplateTraits(null, true, true));

    @Test
    void acceptsAPlainSubmission() {
        assertThatCode(() -> SubmissionChecks.check(with(Map.of("app", "x"), Map.of("EPOCHS", "3")), TEMPLATES))
                .doesNotThrowAnyException();
    }

    @Test
    void refusesAnUnknownTemplateNamingTheKnownOnes() {
        JobSubmission s = new JobSubmission(
                JobFixtures.wholeGpus("team-a", "j", 1).request(), "tensorflow", null, null, null, null, null);
        assertThatThrownBy(() -> SubmissionChecks.check(s, TEMPLATES))
                .isInstanceOfSatisfying(
                        RequestException.class,
                        e -> Assertions.assertThat(e.field()).isEqualTo("template"))
                .hasMessageContaining("job, notebook, pytorchjob, trainjob");
    }

    @Test
    void refusesBadLabelsAndEnv() {
        assertThatThrownBy(() -> SubmissionChecks.check(with(Map.of("quotient.io/team", "b"), Map.of()), TEMPLATES))
                .hasMessageContaining("labels.quotient.io/team")
                .hasMessageContaining("set by Quotient");
        assertThatThrownBy(() -> SubmissionChecks.check(with(Map.of("bad key!", "v"), Map.of()), TEMPLATES))
                .hasMessageContaining("labels.bad key!: is not a valid key");
        assertThatThrownBy(() -> SubmissionChecks.check(with(Map.of("k", "-v-"), Map.of()), TEMPLATES))
                .hasMessageContaining("not a valid Kubernetes label value");
        assertThatThrownBy(() -> SubmissionChecks.check(with(Map.of(), Map.of("1X", "v")), TEMPLATES))
                .hasMessageContaining("env.1X");
    }

    @Test
    void refusesARuntimeThatIsNoObjectName() {
        JobSubmission plain = with(Map.of(), Map.of());
        JobSubmission bad = JobSubmission.onRuntime(
                plain.request(),
                "trainjob",
                "img",
                List.of(),
                List.of(),
                Metadata.NONE,
                Map.of(),
                plain.pod(),
                "Torch_Distributed");

        assertThatThrownBy(() -> SubmissionChecks.check(bad, TEMPLATES))
                .isInstanceOfSatisfying(
                        RequestException.class,
                        e -> Assertions.assertThat(e.field()).isEqualTo("runtime"))
                .hasMessageContaining("'Torch_Distributed' is not a Kubernetes object name");
        SubmissionChecks.check(
                JobSubmission.onRuntime(
                        plain.request(),
                        "trainjob",
                        "img",
                        List.of(),
                        List.of(),
                        Metadata.NONE,
                        Map.of(),
                        plain.pod(),
                        "torch-distributed.v2"),
                TEMPLATES);
    }

    @Test
    void refusesWhatTheTemplateCannotRenderBeforeAnythingIsRecorded() {
        JobSubmission plain = with(Map.of(), Map.of());
        JobSubmission runtimeOnJob = JobSubmission.onRuntime(
                plain.request(),
                "job",
                "img",
                List.of(),
                List.of(),
                Metadata.NONE,
                Map.of(),
                plain.pod(),
                "torch-distributed");
        assertThatThrownBy(() -> SubmissionChecks.check(runtimeOnJob, TEMPLATES))
                .isInstanceOfSatisfying(
                        RequestException.class,
                        e -> Assertions.assertThat(e.field()).isEqualTo("runtime"))
                .hasMessageContaining("the template 'job' runs on no training runtime");

        JobSubmission gangOnJob =
                new JobSubmission(gang(4), "job", "img", List.of(), List.of(), Metadata.NONE, Map.of());
        assertThatThrownBy(() -> SubmissionChecks.check(gangOnJob, TEMPLATES))
                .isInstanceOfSatisfying(
                        RequestException.class,
                        e -> Assertions.assertThat(e.field()).isEqualTo("replicas"))
                .hasMessageContaining("cannot run 4 replicas on 4 nodes")
                .hasMessageContaining("known templates that can: pytorchjob, trainjob");
        assertThatCode(() -> SubmissionChecks.check(
                        new JobSubmission(gang(4), "pytorchjob", "img", List.of(), List.of(), Metadata.NONE, Map.of()),
                        TEMPLATES))
                .doesNotThrowAnyException();
        assertThatCode(() -> SubmissionChecks.check(
                        new JobSubmission(gang(1), "job", "img", List.of(), List.of(), Metadata.NONE, Map.of()),
                        TEMPLATES))
                .doesNotThrowAnyException();
        // an adopted workload's job renders no template: its replicas are the workload's own
        assertThatCode(() -> SubmissionChecks.check(
                        JobSubmission.governing(
                                gang(4), "team-a", new WorkloadRef("kubeflow.org/v1", "PyTorchJob", "llm", "uid-1")),
                        TEMPLATES))
                .doesNotThrowAnyException();
    }

    private static JobRequestInput gang(int replicas) {
        JobRequestInput one = JobFixtures.wholeGpus("team-a", "j", 8).request();
        return JobRequestInput.of(one.team(), one.name())
                .with(GpuAsk.NONE.withCount(one.gpu().count()))
                .with(new GangAsk(replicas, null));
    }

    private static JobSubmission with(Map<String, String> labels, Map<String, String> env) {
        return new JobSubmission(
                JobFixtures.wholeGpus("team-a", "j", 1).request(),
                "job",
                "img",
                List.of(),
                List.of(),
                Metadata.labels(labels),
                env);
    }
}
