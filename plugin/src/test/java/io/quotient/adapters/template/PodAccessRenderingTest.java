package io.quotient.adapters.template;

import static io.quotient.adapters.template.RenderFixtures.builtInRenderer;
import static io.quotient.adapters.template.RenderFixtures.request;
import static io.quotient.adapters.template.RenderFixtures.submission;
import static io.quotient.adapters.template.TreePaths.at;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.GpuRequest;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.Metadata;
import io.quotient.deploy.port.PodOptions;
import io.quotient.deploy.port.VolumeRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The service account, volumes, image pull secrets and annotations of a request become objects of every pod. */
class PodAccessRenderingTest {

    private final TemplateRenderer renderer = builtInRenderer();

    @Test
    void podOptionsAreRenderedAsObjectsOnEveryPodTemplate() {
        JobSubmission plain = submission("job");
        PodOptions pod = new PodOptions(
                "team-a",
                "trainer",
                List.of(
                        new VolumeRequest("data", "datasets", null, null, "/data", true),
                        new VolumeRequest("token", null, "hf-token", null, "/secrets/hf", null),
                        new VolumeRequest("cfg", null, null, "train-config", "/etc/train: x\n- evil", null)),
                List.of("regcred"));
        Metadata metadata = new Metadata(plain.metadata().labels(), Map.of("example.com/cost-center", "42"));
        JobSubmission withPod = new JobSubmission(
                plain.request(), "job", plain.image(), plain.command(), plain.args(), metadata, plain.env(), pod);

        RenderedWorkload job =
                renderer.render(request(withPod, new GpuRequest.WholeGpus(1), List.of(new GpuBinding(0, null, 1.0))));

        Map<String, Object> spec = at(job.body(), "spec.template.spec");
        assertThat(spec)
                .containsEntry("serviceAccountName", "trainer")
                .containsEntry("imagePullSecrets", List.of(Map.of("name", "regcred")));
        assertThat((List<Object>) at(spec, "volumes"))
                .containsExactly(
                        Map.of(
                                "name",
                                "data",
                                "persistentVolumeClaim",
                                Map.of("claimName", "datasets", "readOnly", true)),
                        Map.of("name", "token", "secret", Map.of("secretName", "hf-token")),
                        Map.of("name", "cfg", "configMap", Map.of("name", "train-config")));
        assertThat((List<Object>) at(spec, "containers[0].volumeMounts"))
                .containsExactly(
                        Map.of("name", "data", "mountPath", "/data", "readOnly", true),
                        Map.of("name", "token", "mountPath", "/secrets/hf"),
                        // a path with YAML syntax in it stays one string value
                        Map.of("name", "cfg", "mountPath", "/etc/train: x\n- evil"));
        assertThat((Map<String, Object>) at(job.body(), "spec.template.metadata.annotations"))
                .containsEntry("example.com/cost-center", "42");
    }

    @Test
    void withoutPodOptionsTheTemplatesPodSpecIsLeftAsItIs() {
        RenderedWorkload job = renderer.render(
                request(submission("job"), new GpuRequest.WholeGpus(1), List.of(new GpuBinding(0, null, 1.0))));
        Map<String, Object> spec = at(job.body(), "spec.template.spec");
        assertThat(spec).doesNotContainKeys("serviceAccountName", "imagePullSecrets", "volumes");
    }
}
