package io.quotient.enforcer.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BudgetConventionsTest {

    private static final long GIB = 1L << 30;
    private static final long MIB = 1L << 20;
    private static final long T4 = 16 * GIB;
    private final BudgetConventions conventions = new BudgetConventions();

    private static PodInfo pod(Map<String, String> annotations, ContainerInfo... containers) {
        return new PodInfo("uid-1", "team-a", "train-0", Map.of(), annotations, List.of(containers));
    }

    private static ContainerInfo container(String name, Map<String, String> env) {
        return new ContainerInfo(name, "cid-" + name, env, false);
    }

    private ResolvedBudget resolved(PodInfo pod, ContainerInfo container) {
        return conventions.budgetFor(pod, container).orElseThrow().resolve(T4);
    }

    @Test
    void quotientEnvGivesBytesPerGpu() {
        ContainerInfo main = container(
                "main",
                Map.of(
                        "GPU_MEMORY_REQUEST",
                        Long.toString(4 * GIB),
                        "GPU_MEMORY_LIMIT",
                        Long.toString(8 * GIB),
                        "NVIDIA_VISIBLE_DEVICES",
                        "GPU-a,GPU-b"));

        assertThat(resolved(pod(Map.of(), main), main)).isEqualTo(new ResolvedBudget(4 * GIB, 8 * GIB));
        assertThat(conventions.boundGpus(main)).containsExactlyInAnyOrder("GPU-a", "GPU-b");
    }

    @Test
    void fractionAnnotationsResolveAgainstTheGpusOwnMemory() {
        ContainerInfo main = container("main", Map.of());
        PodInfo pod = pod(Map.of("gpu-fraction", "0.25", "gpu-fraction-limit", "0.5"), main);

        MemoryBudget budget = conventions.budgetFor(pod, main).orElseThrow();

        assertThat(budget.resolve(T4)).isEqualTo(new ResolvedBudget(4 * GIB, 8 * GIB));
        assertThat(budget.resolve(80 * GIB)).isEqualTo(new ResolvedBudget(20 * GIB, 40 * GIB));
    }

    @Test
    void runAiMemoryAnnotationWithItsLimitEnv() {
        ContainerInfo main = container("main", Map.of("RUNAI_GPU_MEMORY_LIMIT", "6Gi"));
        PodInfo pod = pod(Map.of("gpu-memory", "2000"), main);

        assertThat(resolved(pod, main)).isEqualTo(new ResolvedBudget(2000 * MIB, 6 * GIB));
    }

    @Test
    void runAiLimitMayBeAFraction() {
        ContainerInfo main = container("main", Map.of("RUNAI_GPU_MEMORY_LIMIT", "0.75"));
        PodInfo pod = pod(Map.of("gpu-fraction", "0.5"), main);

        assertThat(resolved(pod, main)).isEqualTo(new ResolvedBudget(8 * GIB, 12 * GIB));
    }

    @Test
    void withoutALimitTheRequestIsTheLimit() {
        ContainerInfo main = container("main", Map.of());

        assertThat(resolved(pod(Map.of("gpu-memory", "1024"), main), main)).isEqualTo(new ResolvedBudget(GIB, GIB));
        assertThatThrownBy(() ->
                        conventions.budgetFor(pod(Map.of("gpu-memory-limit", "", "gpu-memory", "1024"), main), main))
                .as("an empty limit is a mistake, not 'no limit'")
                .isInstanceOf(InvalidBudgetException.class);
    }

    @Test
    void kaiPerContainerAnnotations() {
        ContainerInfo sidecar = container("sidecar", Map.of());
        ContainerInfo worker = container("worker", Map.of());
        PodInfo pod = pod(
                Map.of(
                        "nvidia.com/container.worker.gpu-memory.request",
                        "2048",
                        "nvidia.com/container.worker.gpu-memory.limit",
                        "4Gi"),
                sidecar,
                worker);

        assertThat(resolved(pod, worker)).isEqualTo(new ResolvedBudget(2 * GIB, 4 * GIB));
        assertThat(conventions.budgetFor(pod, sidecar)).isEmpty();
    }

    @Test
    void podAnnotationsApplyToTheFirstContainerOrTheNamedOne() {
        ContainerInfo first = container("first", Map.of());
        ContainerInfo second = container("second", Map.of());
        ContainerInfo loader = new ContainerInfo("loader", "cid-loader", Map.of(), true);

        PodInfo byDefault = pod(Map.of("gpu-fraction", "0.5"), loader, first, second);
        assertThat(conventions.budgetFor(byDefault, first)).isPresent();
        assertThat(conventions.budgetFor(byDefault, second)).isEmpty();
        assertThat(conventions.budgetFor(byDefault, loader)).isEmpty();

        PodInfo named = pod(Map.of("gpu-fraction", "0.5", "gpu-fraction-container-name", "second"), first, second);
        assertThat(conventions.budgetFor(named, first)).isEmpty();
        assertThat(conventions.budgetFor(named, second)).isPresent();

        PodInfo init = pod(
                Map.of(
                        "gpu-fraction",
                        "0.5",
                        "gpu-fraction-container-name",
                        "loader",
                        "gpu-fraction-container-type",
                        "InitContainer"),
                loader,
                first);
        assertThat(conventions.budgetFor(init, loader)).isPresent();
        assertThat(conventions.budgetFor(init, first)).isEmpty();
    }

    @Test
    void podsWithoutAConventionAreNotManaged() {
        ContainerInfo main = container("main", Map.of("NVIDIA_VISIBLE_DEVICES", "all"));

        assertThat(conventions.budgetFor(pod(Map.of(), main), main)).isEqualTo(Optional.empty());
        assertThat(conventions.boundGpus(main)).isEmpty();
    }

    @Test
    void badValuesAreClearErrors() {
        ContainerInfo main = container("main", Map.of());
        assertThatThrownBy(() -> conventions.budgetFor(pod(Map.of("gpu-fraction", "1.5"), main), main))
                .isInstanceOf(InvalidBudgetException.class)
                .hasMessageContaining("gpu-fraction=\"1.5\"")
                .hasMessageContaining("(0, 1]");
        assertThatThrownBy(() ->
                        conventions.budgetFor(pod(Map.of("gpu-fraction", "0.5", "gpu-memory", "100"), main), main))
                .isInstanceOf(InvalidBudgetException.class)
                .hasMessageContaining("both gpu-fraction and gpu-memory");
        assertThatThrownBy(() -> conventions.budgetFor(pod(Map.of("gpu-memory", "lots"), main), main))
                .isInstanceOf(InvalidBudgetException.class)
                .hasMessageContaining("whole number of MiB");
        ContainerInfo odd = container("main", Map.of("RUNAI_GPU_MEMORY_LIMIT", "4 parsecs"));
        assertThatThrownBy(() -> conventions.budgetFor(pod(Map.of("gpu-memory", "100"), odd), odd))
                .isInstanceOf(InvalidBudgetException.class)
                .hasMessageContaining("RUNAI_GPU_MEMORY_LIMIT");
    }

    @Test
    void aLimitBelowTheRequestIsRejectedOnTheGpu() {
        ContainerInfo main = container("main", Map.of());
        MemoryBudget budget = conventions
                .budgetFor(pod(Map.of("gpu-fraction", "0.5", "gpu-memory-limit", "1024"), main), main)
                .orElseThrow();

        assertThatThrownBy(() -> budget.resolve(T4))
                .isInstanceOf(InvalidBudgetException.class)
                .hasMessageContaining("below the request");
    }
}
