package io.quotient.core.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.PodGpuAsk;
import io.quotient.core.model.ReplicaGroup;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ForeignGpuRequestsTest {

    private static final String ANNOTATIONS = "spec.template.metadata.annotations";
    private static final String LIMIT_0 = "spec.template.spec.containers[0].resources.limits[nvidia.com/gpu]";
    private static final String LIMIT_1 = "spec.template.spec.containers[1].resources.limits[nvidia.com/gpu]";

    private static Optional<GpuRequest> parse(Map<String, String> annotations, Map<String, String> limits) {
        return ForeignGpuRequests.parse(new PodGpuAsk(ANNOTATIONS, annotations, limits));
    }

    @Test
    void noGpuLimitAndNoAnnotationIsNotOurs() {
        assertThat(parse(Map.of("team", "x"), Map.of())).isEmpty();
        assertThat(parse(Map.of(), Map.of(LIMIT_0, "0"))).isEmpty();
    }

    @Test
    void wholeGpusAreTheSumOfTheContainersLimits() {
        Map<String, String> limits = new LinkedHashMap<>();
        limits.put(LIMIT_0, "8");
        limits.put(LIMIT_1, "1");
        assertThat(parse(Map.of(), limits)).contains(new GpuRequest.WholeGpus(9));
    }

    @Test
    void fractionWithLimitAndDevicesAsRunAiUsersWriteThem() {
        assertThat(parse(Map.of("gpu-fraction", "0.5"), Map.of())).contains(new GpuRequest.Fraction(500, 500, 1));
        assertThat(parse(
                        Map.of("gpu-fraction", "0.25", "gpu-fraction-limit", "0.8", "gpu-fraction-num-devices", "4"),
                        Map.of()))
                .contains(new GpuRequest.Fraction(250, 800, 4));
        assertThat(parse(Map.of("gpu-fraction", "0.5", "gpu-fraction-limit", "1"), Map.of()))
                .contains(new GpuRequest.Fraction(500, 1000, 1));
    }

    @Test
    void memoryInMibWithLimit() {
        assertThat(parse(Map.of("gpu-memory", "2000"), Map.of())).contains(new GpuRequest.Memory(2000, 2000, 1));
        assertThat(parse(
                        Map.of("gpu-memory", "2000", "gpu-memory-limit", "4000", "gpu-fraction-num-devices", "2"),
                        Map.of()))
                .contains(new GpuRequest.Memory(2000, 4000, 2));
    }

    @Test
    void fractionAndMemoryTogetherAreRefusedNamingTheAnnotation() {
        assertThatThrownBy(() -> parse(Map.of("gpu-fraction", "0.5", "gpu-memory", "2000"), Map.of()))
                .isInstanceOf(RequestException.class)
                .hasMessage(ANNOTATIONS + "[gpu-memory]: cannot be combined with gpu-fraction; ask for a fraction of a"
                        + " GPU or for MiB of it, not both");
    }

    @Test
    void aLimitBelowTheRequestIsRefused() {
        assertThatThrownBy(() -> parse(Map.of("gpu-fraction", "0.5", "gpu-fraction-limit", "0.3"), Map.of()))
                .hasMessage(ANNOTATIONS + "[gpu-fraction-limit]: (0.3) must not be below gpu-fraction (0.5)");
        assertThatThrownBy(() -> parse(Map.of("gpu-memory", "4000", "gpu-memory-limit", "2000"), Map.of()))
                .hasMessage(ANNOTATIONS + "[gpu-memory-limit]: (2000) must not be below gpu-memory (4000)");
    }

    @Test
    void aShareTogetherWithWholeGpusIsRefusedNamingTheLimit() {
        assertThatThrownBy(() -> parse(Map.of("gpu-fraction", "0.5"), Map.of(LIMIT_0, "1")))
                .isInstanceOf(RequestException.class)
                .satisfies(e -> assertThat(((RequestException) e).field()).isEqualTo(LIMIT_0))
                .hasMessageContaining("cannot be combined with the gpu-fraction annotation");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "gpu-fraction|1|gpu-fraction",
                "gpu-fraction|0|gpu-fraction",
                "gpu-fraction|half|gpu-fraction",
                "gpu-fraction|0.0001|gpu-fraction",
                "gpu-memory|2Gi|gpu-memory",
                "gpu-memory|0|gpu-memory",
                "gpu-fraction-limit|0.9|gpu-fraction-limit",
                "gpu-memory-limit|4000|gpu-memory-limit",
                "gpu-fraction-num-devices|2|gpu-fraction-num-devices"
            })
    void badAnnotationsAreRefusedNamingTheAnnotation(String annotation, String value, String field) {
        assertThatThrownBy(() -> parse(Map.of(annotation, value), Map.of()))
                .isInstanceOf(RequestException.class)
                .satisfies(e -> assertThat(((RequestException) e).field()).isEqualTo(ANNOTATIONS + "[" + field + "]"));
    }

    /** Values are read as written: what trimming, Unicode digits, signs, exponents or a cast once let through. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                " 0.5",
                "0.5\n",
                "0.5\u0000",
                "+0.5",
                "5e-1",
                "\u0660.\u0665",
                "\uFF10.\uFF15",
                "0.0015",
                "0.12345",
                "0.5.",
                "1e309",
                "NaN",
                "-0",
                "0x1",
                "Infinity",
                ""
            })
    void aShareNotWrittenAsPlainThousandthsIsRefused(String value) {
        assertThatThrownBy(() -> parse(Map.of("gpu-fraction", value), Map.of()))
                .isInstanceOf(RequestException.class)
                .satisfies(e -> assertThat(((RequestException) e).field()).isEqualTo(ANNOTATIONS + "[gpu-fraction]"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"4294967297", "2147483648", "1025", " 2", "2 ", "\u0662"})
    void aDeviceCountBeyondANodeOrNotInDigitsIsRefused(String value) {
        assertThatThrownBy(() -> parse(Map.of("gpu-fraction", "0.5", "gpu-fraction-num-devices", value), Map.of()))
                .isInstanceOf(RequestException.class)
                .satisfies(e -> assertThat(((RequestException) e).field())
                        .isEqualTo(ANNOTATIONS + "[gpu-fraction-num-devices]"));
    }

    @ParameterizedTest
    @ValueSource(strings = {" 2 ", "2\n", "\u0662", "+2", "999999"})
    void aGpuLimitWithSpacesOtherDigitsOrBeyondANodeIsRefused(String value) {
        assertThatThrownBy(() -> parse(Map.of(), Map.of(LIMIT_0, value)))
                .isInstanceOf(RequestException.class)
                .satisfies(e -> assertThat(((RequestException) e).field()).isEqualTo(LIMIT_0));
    }

    @Test
    void plainSharesAreReadExactly() {
        assertThat(parse(Map.of("gpu-fraction", "0.25", "gpu-fraction-limit", ".500"), Map.of()))
                .contains(new GpuRequest.Fraction(250, 500, 1));
        assertThat(parse(Map.of("gpu-fraction", "0.001", "gpu-fraction-num-devices", "1024"), Map.of()))
                .contains(new GpuRequest.Fraction(1, 1, 1024));
    }

    @Test
    void aNonIntegerGpuLimitIsRefused() {
        assertThatThrownBy(() -> parse(Map.of(), Map.of(LIMIT_0, "500m")))
                .hasMessageStartingWith(LIMIT_0 + ": '500m' is not a whole number of GPUs");
    }

    @Test
    void badDevicesAreRefused() {
        assertThatThrownBy(() -> parse(Map.of("gpu-fraction", "0.5", "gpu-fraction-num-devices", "0"), Map.of()))
                .hasMessageContaining("[gpu-fraction-num-devices]: must be a whole number of GPUs, at least 1");
    }

    private static ReplicaGroup group(String name, int replicas, String gpus) {
        return new ReplicaGroup(
                name + ".replicas",
                replicas,
                new PodGpuAsk(
                        name + ".annotations", Map.of(), gpus == null ? Map.of() : Map.of(name + ".limit", gpus)));
    }

    @Test
    void replicaGroupsWithTheSameWholeGpusFormAGang() {
        assertThat(ForeignGpuRequests.demand(List.of(group("Master", 1, "8"), group("Worker", 3, "8"))))
                .contains(new ForeignDemand(new GpuRequest.WholeGpus(8), 4));
        assertThat(ForeignGpuRequests.demand(List.of(group("Master", 1, null), group("Worker", 3, null))))
                .isEmpty();
        assertThat(ForeignGpuRequests.demand(List.of(group("Master", 1, "8"), group("Worker", 0, null))))
                .contains(new ForeignDemand(new GpuRequest.WholeGpus(8), 1));
    }

    @Test
    void unequalReplicasReplicasWithoutGpusAndSharedGangsAreRefused() {
        assertThatThrownBy(() -> ForeignGpuRequests.demand(List.of(group("Master", 1, "8"), group("Worker", 3, "4"))))
                .hasMessageStartingWith("Worker.replicas: these replicas ask for other GPUs than Master.replicas");
        assertThatThrownBy(() -> ForeignGpuRequests.demand(List.of(group("Master", 1, null), group("Worker", 3, "4"))))
                .hasMessageStartingWith("Worker.replicas: some replicas of this job ask for GPUs and others do not");
        ReplicaGroup shared = new ReplicaGroup(
                "spec.trainer.numNodes",
                2,
                new PodGpuAsk("metadata.annotations", Map.of("gpu-fraction", "0.5"), Map.of()));
        assertThatThrownBy(() -> ForeignGpuRequests.demand(List.of(shared)))
                .hasMessageStartingWith("spec.trainer.numNodes: 2 replicas ask for a share of a GPU");
        assertThatThrownBy(() -> ForeignGpuRequests.demand(List.of(group("Worker", -1, "1"))))
                .hasMessage("Worker.replicas: must not be negative (was -1)");
    }
}
