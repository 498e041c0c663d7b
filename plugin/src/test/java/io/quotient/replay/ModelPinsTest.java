package io.quotient.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The seeded pins: the stated share of jobs, models in the fleet's proportions, the same pin for a job every time. */
class ModelPinsTest {

    private static final List<NodeSpec> FLEET =
            ClusterSize.uniform(8, 8, NodeModels.parse("H100-80GB:0.25,A100-SXM4-80GB:0.5,V100-32GB:0.25"));

    private static List<ReplayJob> jobs(int n, int gpus) {
        List<ReplayJob> jobs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            jobs.add(ReplayJob.wholeGpus("philly-" + i, "t", i * 1000L, 1000, gpus));
        }
        return jobs;
    }

    @Test
    void theStatedShareIsPinnedInTheFleetsProportions() {
        List<ReplayJob> pinned = new ModelPins(0.3, ModelPins.DEFAULT_SEED).pin(jobs(20_000, 1), FLEET);
        Map<String, Long> byModel = pinned.stream()
                .filter(j -> !j.models().isEmpty())
                .collect(Collectors.groupingBy(j -> j.models().iterator().next(), Collectors.counting()));
        long total = byModel.values().stream().mapToLong(Long::longValue).sum();
        assertThat(total / 20_000.0).isBetween(0.29, 0.31);
        assertThat(byModel.get("A100-SXM4-80GB") / (double) total).isBetween(0.48, 0.52);
        assertThat(byModel.get("H100-80GB") / (double) total).isBetween(0.23, 0.27);
        assertThat(byModel.get("V100-32GB") / (double) total).isBetween(0.23, 0.27);
        assertThat(pinned.stream().allMatch(j -> j.models().size() <= 1)).isTrue();
    }

    @Test
    void aJobKeepsItsPinWhateverTheSliceAndOnlyTheSeedChangesIt() {
        ModelPins pins = new ModelPins(0.5, 7);
        List<ReplayJob> all = pins.pin(jobs(2_000, 1), FLEET);
        assertThat(pins.pin(jobs(2_000, 1), FLEET)).isEqualTo(all);
        List<ReplayJob> later = pins.pin(jobs(2_000, 1).subList(1_000, 2_000), FLEET);
        assertThat(later).isEqualTo(all.subList(1_000, 2_000));
        assertThat(new ModelPins(0.5, 8).pin(jobs(2_000, 1), FLEET)).isNotEqualTo(all);
        assertThat(new ModelPins(0, 7).pin(jobs(100, 1), FLEET))
                .allMatch(j -> j.models().isEmpty());
        assertThat(new ModelPins(1, 7).pin(jobs(100, 1), FLEET))
                .allMatch(j -> j.models().size() == 1);
    }

    @Test
    void jobsWithoutGpusOrWithTheirOwnModelsOrTooBigForAModelAreLeftOrPinnedWhereTheyFit() {
        ModelPins pins = new ModelPins(1, 3);
        assertThat(pins.pin(jobs(50, 0), FLEET)).allMatch(j -> j.models().isEmpty());
        List<ReplayJob> own =
                jobs(50, 1).stream().map(j -> j.withModels(Set.of("L4"))).toList();
        assertThat(pins.pin(own, FLEET)).isEqualTo(own);
        // 24 GPUs: more than the 16 H100s or 16 V100s, so only the 32 A100s can hold it
        assertThat(pins.pin(jobs(50, 24), FLEET)).allMatch(j -> j.models().equals(Set.of("A100-SXM4-80GB")));
        assertThat(pins.pin(jobs(50, 100), FLEET))
                .as("no model holds it")
                .allMatch(j -> j.models().isEmpty());
        Function<ReplayJob, String> first = j -> j.models().iterator().next();
        List<String> sixteen =
                pins.pin(jobs(400, 16), FLEET).stream().map(first).toList();
        assertThat(Collections.frequency(sixteen, "H100-80GB")).isPositive();
    }

    @Test
    void aPinnedJobKeepsEverythingElseItAsked() {
        ReplayJob notebook = new ReplayJob(
                "nb",
                "t",
                0,
                3_600_000,
                new GpuRequest.WholeGpus(1),
                0,
                0,
                Set.of(),
                1,
                JobKind.NOTEBOOK,
                0,
                false,
                0,
                Duration.ZERO,
                IdleProfile.parse("busy:10m|idle:50m"));
        List<ReplayJob> pinned = new ModelPins(1.0, ModelPins.DEFAULT_SEED).pin(List.of(notebook), FLEET);
        assertThat(pinned.get(0).models()).hasSize(1);
        // a pin is a placement constraint only: the job stays as idle as its profile says
        assertThat(pinned.get(0).profile()).isEqualTo(notebook.profile());
        assertThat(pinned.get(0).withModels(Set.of())).isEqualTo(notebook);
    }
}
