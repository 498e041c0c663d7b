package io.quotient.adapters.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TemplateCatalogTest {

    private static final String GOOD_JOB = """
            apiVersion: batch/v1
            kind: Job
            spec:
              template:
                spec:
                  restartPolicy: Never
                  containers:
                    - name: work
                      image: custom:2
            """;

    /** Pod-template annotations naming an init container "loader" as the one that gets the GPU. */
    private static final String LOADER_IN_INIT_CONTAINER = """
              template:
                metadata:
                  annotations:
                    gpu-fraction-container-name: loader
                    gpu-fraction-container-type: InitContainer
            """;

    @TempDir
    Path dir;

    @Test
    void builtInTemplatesLoadWithTheirKinds() {
        TemplateCatalog catalog = TemplateCatalog.builtIn();

        assertThat(catalog.names()).containsExactly("job", "notebook", "pytorchjob", "trainjob");
        assertThat(catalog.find("job").orElseThrow().kind()).isEqualTo(WorkloadKind.JOB);
        assertThat(catalog.find("notebook").orElseThrow().kind()).isEqualTo(WorkloadKind.POD);
        assertThat(catalog.find("pytorchjob").orElseThrow().kind()).isEqualTo(WorkloadKind.PYTORCH_JOB);
        assertThat(catalog.find("trainjob").orElseThrow().kind()).isEqualTo(WorkloadKind.TRAIN_JOB);
        assertThat(catalog.find("notebook").orElseThrow().preemptibleByDefault())
                .contains(false);
        assertThat(catalog.find("job").orElseThrow().preemptibleByDefault()).isEmpty();
    }

    @Test
    void folderAddsTemplatesAndReplacesBuiltInsOfTheSameName() throws IOException {
        Files.writeString(dir.resolve("batch-cpu.yaml"), GOOD_JOB);
        Files.writeString(dir.resolve("job.yml"), GOOD_JOB);
        Files.writeString(dir.resolve("README.md"), "not a template");

        TemplateCatalog catalog = TemplateCatalog.load(Optional.of(dir));

        assertThat(catalog.names()).containsExactly("batch-cpu", "job", "notebook", "pytorchjob", "trainjob");
        assertThat(catalog.find("job").orElseThrow().source()).endsWith("job.yml");
    }

    @Test
    void datesAndVersionLikeValuesStayStrings() throws IOException {
        Files.writeString(
                dir.resolve("dated.yaml"),
                GOOD_JOB.replace("custom:2", "custom") + "metadata:\n  labels:\n    release: 2024-07-29\n");

        TemplateCatalog catalog = TemplateCatalog.load(Optional.of(dir));

        Object release = TreePaths.at(catalog.find("dated").orElseThrow().document(), "metadata.labels.release");
        assertThat(release).isEqualTo("2024-07-29");
    }

    @Test
    void everyMalformedFileIsReportedWithItsNameAndReason() throws IOException {
        write("syntax.yaml", "apiVersion: batch/v1\nkind: Job\nspec: [unclosed\n");
        write("two-docs.yaml", GOOD_JOB + "---\n" + GOOD_JOB);
        write("empty.yaml", "");
        write("scalar.yaml", "just a string\n");
        write(
                "deployment.yaml",
                GOOD_JOB.replace("kind: Job", "kind: Deployment").replace("batch/v1", "apps/v1"));
        write("no-containers.yaml", "apiVersion: batch/v1\nkind: Job\nspec:\n  template:\n    spec: {}\n");
        write("no-image.yaml", GOOD_JOB.replace("      image: custom:2\n", ""));
        write("duplicate.yaml", GOOD_JOB + "kind: Job\n");
        write("pinned.yaml", GOOD_JOB.replace("restartPolicy: Never", "nodeName: n1"));
        write("no-master.yaml", """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                spec:
                  pytorchReplicaSpecs:
                    Worker:
                      template:
                        spec:
                          containers: [{name: pytorch, image: p}]
                """);
        write("bad-gpu-container.yaml", GOOD_JOB.replace("  template:\n", LOADER_IN_INIT_CONTAINER));
        write(
                "bad-preemptible.yaml",
                GOOD_JOB.replace(
                        "kind: Job\n",
                        "kind: Job\nmetadata:\n  annotations:\n    quotient.io/preemptible: sometimes\n"));

        TemplateException e =
                catchThrowableOfType(() -> TemplateCatalog.load(Optional.of(dir)), TemplateException.class);

        assertThat(e.problems()).hasSize(12);
        assertProblem(e, "syntax.yaml:4: not valid YAML", "flow sequence");
        assertProblem(e, "two-docs.yaml", "holds 2 YAML documents");
        assertProblem(e, "empty.yaml", "holds 0 YAML documents");
        assertProblem(e, "scalar.yaml", "one YAML mapping");
        assertProblem(e, "deployment.yaml", "kind 'Deployment' is not supported");
        assertProblem(e, "no-containers.yaml", "spec.template.spec.containers is missing");
        assertProblem(e, "no-image.yaml", "has no image");
        assertProblem(e, "duplicate.yaml:", "duplicate key");
        assertProblem(e, "pinned.yaml", "nodeName is set");
        assertProblem(e, "no-master.yaml", "no Master replica");
        assertProblem(e, "bad-gpu-container.yaml", "initContainers is missing");
        assertProblem(e, "bad-preemptible.yaml", "quotient.io/preemptible must be \"true\" or \"false\"");
        assertThat(e.getMessage()).contains("syntax.yaml").contains("restart");
    }

    @Test
    void missingFolderIsReported() {
        Path missing = dir.resolve("nope");

        assertThatThrownBy(() -> TemplateCatalog.load(Optional.of(missing)))
                .isInstanceOf(TemplateException.class)
                .hasMessageContaining(missing.toString())
                .hasMessageContaining("does not exist");
    }

    @Test
    void namedGpuContainerThatExistsIsAccepted() throws IOException {
        write(
                "loader.yaml",
                GOOD_JOB.replace("  template:\n", LOADER_IN_INIT_CONTAINER).replace("restartPolicy: Never", """
                restartPolicy: Never
                      initContainers:
                        - name: loader
                          image: loader:1"""));

        assertThat(TemplateCatalog.load(Optional.of(dir)).names()).contains("loader");
    }

    private void write(String name, String content) throws IOException {
        Files.writeString(dir.resolve(name), content);
    }

    private static void assertProblem(TemplateException e, String file, String reason) {
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).contains(file).contains(reason));
    }
}
