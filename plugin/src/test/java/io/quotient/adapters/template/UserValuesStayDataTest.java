package io.quotient.adapters.template;

import static io.quotient.adapters.template.RenderFixtures.*;
import static io.quotient.adapters.template.TreePaths.at;
import static io.quotient.adapters.template.TreePaths.env;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.Gson;
import io.quotient.core.model.GpuRequest;
import io.quotient.deploy.port.GpuBinding;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** Values that would break or inject into YAML text are set as data and come out unchanged. */
class UserValuesStayDataTest {

    private static final String IMAGE = "evil:1\n  nodeName: other-node\n# comment";
    private static final List<String> COMMAND = List.of(
            "sh",
            "-c",
            "echo \"x\"; rm -rf / #",
            "- item",
            "{a: b}",
            "*alias",
            "&anchor",
            "!!python/object",
            "key: value",
            "'quoted'",
            "|",
            ">");
    private static final Map<String, String> ENV =
            Map.of("TRICKY", "${HOME} {{ .Values }} : [x] ---\n...", "NEWLINES", "line1\nline2: injected\n  - name: X");

    private final TemplateRenderer renderer = builtInRenderer();

    @Test
    void specialCharactersSurviveRenderingAndSerialisationAsTheSameStrings() {
        RenderRequest request = RenderFixtures.request(
                submission("job", IMAGE, COMMAND, Map.of("owner", "a.b_c-d"), ENV),
                new GpuRequest.WholeGpus(1),
                List.of(new GpuBinding(0, null, 1)));

        RenderedWorkload job = renderer.render(request);

        assertRendered(job.body());
        Object viaJson = new Gson().fromJson(new Gson().toJson(job.body()), Map.class);
        assertRendered(viaJson);
        Object viaYaml = new Yaml().load(new Yaml().dump(job.body()));
        assertRendered(viaYaml);
    }

    private static void assertRendered(Object body) {
        Map<String, Object> main = at(body, "spec.template.spec.containers[0]");
        assertThat(main).containsEntry("image", IMAGE).containsEntry("command", COMMAND);
        assertThat(env(main, "TRICKY")).isEqualTo(ENV.get("TRICKY"));
        assertThat(env(main, "NEWLINES")).isEqualTo(ENV.get("NEWLINES"));
        assertThat((List<?>) main.get("env")).hasSize(2);
        assertThat((TreePaths.<Map<String, Object>>at(body, "spec.template.spec")))
                .doesNotContainKey("nodeName");
        assertThat(main).containsOnlyKeys("name", "image", "command", "args", "env", "resources");
    }
}
