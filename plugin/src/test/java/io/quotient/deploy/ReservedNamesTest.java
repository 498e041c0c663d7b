package io.quotient.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.request.RequestException;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.Metadata;
import io.quotient.deploy.port.PodOptions;
import io.quotient.deploy.port.TemplateTraits;
import io.quotient.deploy.port.VolumeRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Names that would let a job escape its quota, and pod options, are refused with the field named. */
class ReservedNamesTest {

    private static final Map<String, TemplateTraits> TEMPLATES = Map.of("job", new TemplateTraits(null, false, false));

    @ParameterizedTest
    @ValueSource(
            strings = {
                "NVIDIA_VISIBLE_DEVICES",
                "NVIDIA_DRIVER_CAPABILITIES",
                "CUDA_VISIBLE_DEVICES",
                "GPU_MEMORY_LIMIT",
                "GPU_MEMORY_REQUEST",
                "RUNAI_GPU_MEMORY_LIMIT",
                "RUNAI_ANYTHING"
            })
    void reservedEnvIsRefused(String name) {
        assertThat(field(submission("img", Metadata.NONE, Map.of(name, "all"), PodOptions.NONE)))
                .isEqualTo("env." + name);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "quotient.io/team",
                "quotient.io/anything",
                "gpu-fraction",
                "gpu-fraction-limit",
                "gpu-memory",
                "gpu-memory-limit",
                "example.com/gpu-fraction",
                "nvidia.com/container.main.gpu-memory.limit"
            })
    void reservedLabelsAndAnnotationsAreRefused(String key) {
        assertThat(field(submission("img", Metadata.labels(Map.of(key, "1")), Map.of(), PodOptions.NONE)))
                .isEqualTo("labels." + key);
        Metadata annotated = new Metadata(Map.of(), Map.of(key, "1"));
        assertThat(field(submission("img", annotated, Map.of(), PodOptions.NONE)))
                .isEqualTo("annotations." + key);
    }

    /** The renderer sets it on every workload (the informers select on it): a value given was overwritten in silence. */
    @ParameterizedTest
    @ValueSource(strings = {"app.kubernetes.io/managed-by", "APP.Kubernetes.IO/managed-by"})
    void theManagedByLabelIsRefusedNamingIt(String key) {
        JobSubmission labelled = submission("img", Metadata.labels(Map.of(key, "me")), Map.of(), PodOptions.NONE);
        assertThat(field(labelled)).isEqualTo("labels." + key);
    }

    @Test
    void managedByIsTheUsersOwnAsAnAnnotationOrUnderAnotherNameOrPrefix() {
        for (String key : List.of("app.kubernetes.io/Managed-By", "managed-by", "example.com/managed-by")) {
            assertThatCode(() -> SubmissionChecks.check(
                            submission("img", Metadata.labels(Map.of(key, "me")), Map.of(), PodOptions.NONE),
                            TEMPLATES))
                    .as(key)
                    .doesNotThrowAnyException();
        }
        Metadata annotated = new Metadata(Map.of(), Map.of("app.kubernetes.io/managed-by", "me"));
        assertThatCode(() -> SubmissionChecks.check(submission("img", annotated, Map.of(), PodOptions.NONE), TEMPLATES))
                .doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "busybox 1.36",
                "busybox:1.36\nrm -rf /",
                "Busybox",
                "busybox:",
                "reg.io:x/img",
                "img@sha256:xyz",
                // digests the grammar allows but no runtime verifies: upper-case, short, long, unknown algorithms
                "img@sha256:0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF",
                "img@sha256:0123456789abcdef0123456789abcdef",
                "img@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0",
                "img@sha512:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
                "img@md5:0123456789abcdef0123456789abcdef"
            })
    void invalidImageReferencesAreRefused(String image) {
        assertThat(field(submission(image, Metadata.NONE, Map.of(), PodOptions.NONE)))
                .isEqualTo("image");
    }

    /** A name (registry and repository) of at most 255 characters, whatever its tag. */
    @Test
    void anImageNameOfMoreThan255CharactersIsRefused() {
        String longest = "r/" + "a".repeat(253);
        assertThatCode(() -> SubmissionChecks.check(
                        submission(longest + ":v1", Metadata.NONE, Map.of(), PodOptions.NONE), TEMPLATES))
                .doesNotThrowAnyException();
        assertThat(field(submission(longest + "a:v1", Metadata.NONE, Map.of(), PodOptions.NONE)))
                .isEqualTo("image");
        assertThat(field(submission("localhost:5000/" + "a".repeat(241), Metadata.NONE, Map.of(), PodOptions.NONE)))
                .isEqualTo("image");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "busybox",
                "busybox:1.36",
                "pytorch/pytorch:2.3.0-cuda12.1",
                "localhost:5000/a/b_c:v1",
                "ghcr.io/quotient-io/quotient:0.1.0@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
            })
    void validImageReferencesPass(String image) {
        assertThatCode(() ->
                        SubmissionChecks.check(submission(image, Metadata.NONE, Map.of(), PodOptions.NONE), TEMPLATES))
                .doesNotThrowAnyException();
    }

    @Test
    void podOptionsAreCheckedFieldByField() {
        VolumeRequest data = new VolumeRequest("data", "datasets", null, null, "/data", true);
        assertThatCode(() -> SubmissionChecks.check(
                        submission(
                                "img",
                                new Metadata(Map.of(), Map.of("team.example/owner", "ann")),
                                Map.of(),
                                new PodOptions(null, "trainer", List.of(data), List.of("regcred"))),
                        TEMPLATES))
                .doesNotThrowAnyException();
        assertThat(field(options(new PodOptions(null, "Bad SA", List.of(), List.of()))))
                .isEqualTo("serviceAccountName");
        assertThat(field(options(new PodOptions(null, null, List.of(), List.of("bad secret")))))
                .isEqualTo("imagePullSecrets[0]");
        assertThat(field(options(new PodOptions(
                        null,
                        null,
                        List.of(data, new VolumeRequest("cfg", "datasets", "s", null, "/cfg", null)),
                        List.of()))))
                .isEqualTo("volumes[1]");
        assertThat(field(options(new PodOptions(
                        null,
                        null,
                        List.of(new VolumeRequest("data", "datasets", null, null, "data", null)),
                        List.of()))))
                .isEqualTo("volumes[0].mountPath");
        assertThat(field(options(new PodOptions(
                        null, null, List.of(data, new VolumeRequest("data", null, "s", null, "/s", null)), List.of()))))
                .isEqualTo("volumes[1].name");
    }

    /** Was: "'null' is not a valid volume name", quoting a name the request never gave. */
    @Test
    void aVolumeWithoutANameIsToldItIsRequired() {
        JobSubmission unnamed = options(new PodOptions(
                null, null, List.of(new VolumeRequest(null, "datasets", null, null, "/data", null)), List.of()));
        assertThatThrownBy(() -> SubmissionChecks.check(unnamed, TEMPLATES))
                .hasMessageStartingWith("volumes[0].name: is required");
    }

    private static JobSubmission options(PodOptions pod) {
        return submission("img", Metadata.NONE, Map.of(), pod);
    }

    private static String field(JobSubmission submission) {
        try {
            SubmissionChecks.check(submission, TEMPLATES);
        } catch (RequestException e) {
            return e.field();
        }
        throw new AssertionError("accepted: " + submission);
    }

    private static JobSubmission submission(String image, Metadata metadata, Map<String, String> env, PodOptions pod) {
        return new JobSubmission(
                JobFixtures.wholeGpus("team-a", "j", 1).request(),
                "job",
                image,
                List.of(),
                List.of(),
                metadata,
                env,
                pod);
    }
}
