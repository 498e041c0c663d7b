package io.quotient.core.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JobSpecValidatorTest {

    private static final Map<String, Team> TEAMS = Map.of("team-a", Team.of("team-a", 20));
    private final JobSpecValidator validator = new JobSpecValidator();

    static Stream<Arguments> badRequests() {
        return Stream.of(
                Arguments.of(ValidatorInput.of().name(null), "name", "is required"),
                Arguments.of(ValidatorInput.of().name(" "), "name", "is required"),
                Arguments.of(ValidatorInput.of().name("Train_1"), "name", "DNS-1123"),
                Arguments.of(ValidatorInput.of().name("-train"), "name", "DNS-1123"),
                Arguments.of(ValidatorInput.of().name("a".repeat(64)), "name", "at most 63"),
                Arguments.of(ValidatorInput.of().team(null), "team", "is required"),
                Arguments.of(ValidatorInput.of().count(0), "gpu.count", "at least 1"),
                Arguments.of(ValidatorInput.of().count(-2), "gpu.count", "at least 1"),
                Arguments.of(ValidatorInput.of().fraction(0.0, null), "gpu.fraction", "greater than 0 and less than 1"),
                Arguments.of(ValidatorInput.of().fraction(1.0, null), "gpu.fraction", "less than 1"),
                Arguments.of(ValidatorInput.of().fraction(-0.5, null), "gpu.fraction", "greater than 0"),
                // below the smallest share and next to a whole GPU: finer than the thousandths shares are kept in
                Arguments.of(
                        ValidatorInput.of().fraction(0.0001, null), "gpu.fraction", "three decimals (such as 0.001)"),
                Arguments.of(
                        ValidatorInput.of().fraction(0.9999, null), "gpu.fraction", "three decimals (such as 0.999)"),
                Arguments.of(ValidatorInput.of().fraction(0.0015, null), "gpu.fraction", "finer than a thousandth"),
                Arguments.of(ValidatorInput.of().fraction(0.1234, null), "gpu.fraction", "(such as 0.123)"),
                Arguments.of(ValidatorInput.of().fraction(0.5, 0.5005), "gpu.fractionLimit", "at most three decimals"),
                Arguments.of(
                        ValidatorInput.of().resources(null, JobSpecValidator.MAX_MEMORY_MIB + 1),
                        "memoryMib",
                        "at most 8796093022207 MiB"),
                Arguments.of(
                        ValidatorInput.of().fraction(0.5, 0.4), "gpu.fractionLimit", "must not be below gpu.fraction"),
                Arguments.of(ValidatorInput.of().fraction(0.5, 1.5), "gpu.fractionLimit", "at most 1"),
                Arguments.of(ValidatorInput.of().fraction(null, 0.5), "gpu.fractionLimit", "needs gpu.fraction"),
                Arguments.of(
                        ValidatorInput.of().fraction(0.5, null).memory(2000L, null),
                        "gpu.memoryMib",
                        "cannot be combined with gpu.fraction"),
                Arguments.of(ValidatorInput.of().count(1).fraction(0.5, null), "gpu.count", "cannot be combined"),
                Arguments.of(ValidatorInput.of().count(1).memory(2000L, null), "gpu.count", "cannot be combined"),
                Arguments.of(ValidatorInput.of().memory(0L, null), "gpu.memoryMib", "must be from 1 to 1048576 MiB"),
                Arguments.of(
                        ValidatorInput.of().memory(Long.MAX_VALUE, null),
                        "gpu.memoryMib",
                        "must be from 1 to 1048576 MiB"),
                Arguments.of(
                        ValidatorInput.of().memory(2000L, Long.MAX_VALUE),
                        "gpu.memoryLimitMib",
                        "must be from 1 to 1048576 MiB"),
                Arguments.of(ValidatorInput.of().count(1_000_000), "gpu.count", "at most 1024 GPUs per replica"),
                Arguments.of(
                        ValidatorInput.of().scheduling(null, null, 3601L),
                        "minRuntimeSeconds",
                        "at most 3600 seconds are allowed on this cluster"),
                Arguments.of(
                        ValidatorInput.of().scheduling(null, null, Long.MAX_VALUE),
                        "minRuntimeSeconds",
                        "at most 3600"),
                Arguments.of(
                        ValidatorInput.of().count(1).models(List.of("A100\u0000")),
                        "gpuModels[0]",
                        "control characters"),
                Arguments.of(
                        ValidatorInput.of().count(1).models(List.of("A100-SXM4-80GB ")),
                        "gpuModels[0]",
                        "is not a GPU model name"),
                Arguments.of(
                        ValidatorInput.of().count(1).models(List.of(" A100-SXM4-80GB")),
                        "gpuModels[0]",
                        "is not a GPU model name"),
                Arguments.of(
                        ValidatorInput.of().memory(4000L, 2000L),
                        "gpu.memoryLimitMib",
                        "must not be below gpu.memoryMib"),
                Arguments.of(ValidatorInput.of().memory(null, 2000L), "gpu.memoryLimitMib", "needs gpu.memoryMib"),
                Arguments.of(
                        ValidatorInput.of().devices(2), "gpuDevices", "applies only to gpu.fraction or gpu.memoryMib"),
                Arguments.of(ValidatorInput.of().count(2).devices(2), "gpuDevices", "applies only to"),
                Arguments.of(
                        ValidatorInput.of().fraction(0.5, null).devices(0), "gpuDevices", "must be from 1 to 1024"),
                Arguments.of(ValidatorInput.of().resources(-1L, null), "cpuMilli", "must not be negative"),
                Arguments.of(ValidatorInput.of().resources(null, -1L), "memoryMib", "must not be negative"),
                Arguments.of(ValidatorInput.of().scheduling(1001, null, null), "priority", "between -1000 and 1000"),
                Arguments.of(ValidatorInput.of().scheduling(-1001, null, null), "priority", "between -1000 and 1000"),
                Arguments.of(
                        ValidatorInput.of().scheduling(null, null, -5L), "minRuntimeSeconds", "must not be negative"),
                Arguments.of(
                        ValidatorInput.of().models(List.of("A100")), "gpuModels", "only to jobs that request GPUs"),
                Arguments.of(
                        ValidatorInput.of().count(1).models(Arrays.asList("A100", " ")),
                        "gpuModels[1]",
                        "is not a GPU model name"),
                Arguments.of(
                        ValidatorInput.of().count(1).models(Arrays.asList("A100", "")), "gpuModels[1]", "is empty"),
                Arguments.of(
                        ValidatorInput.of().count(1).models(Arrays.asList("A100", null)), "gpuModels[1]", "not null"),
                Arguments.of(
                        ValidatorInput.of().count(1).models(List.of("A100", "H100", "A100")),
                        "gpuModels[2]",
                        "names 'A100' again (as gpuModels[0])"));
    }

    /** Issue 31: the cluster bounds minRuntimeSeconds, one hour unless configured, for new and stored jobs alike. */
    @Test
    void minimumRuntimeIsBoundedByTheClustersMaximum() {
        assertThat(validator
                        .validate(
                                ValidatorInput.of()
                                        .scheduling(null, null, 3600L)
                                        .input(),
                                TEAMS)
                        .minRuntime())
                .isEqualTo(Duration.ofHours(1));
        JobSpecValidator twoHours = new JobSpecValidator(Duration.ofHours(2));
        assertThat(twoHours.validate(
                                ValidatorInput.of()
                                        .scheduling(null, null, 7200L)
                                        .input(),
                                TEAMS)
                        .minRuntime())
                .isEqualTo(Duration.ofHours(2));
        assertThatThrownBy(() -> twoHours.validateRequest(
                        ValidatorInput.of().scheduling(null, null, 7201L).input()))
                .isInstanceOfSatisfying(
                        RequestException.class, e -> assertThat(e.field()).isEqualTo("minRuntimeSeconds"))
                .hasMessageContaining("at most 7200 seconds are allowed on this cluster");
    }

    @ParameterizedTest
    @MethodSource("badRequests")
    void refusesABadRequestNamingTheFieldAndReason(ValidatorInput request, String field, String reason) {
        assertThatThrownBy(() -> validator.validate(request.input(), TEAMS))
                .isInstanceOfSatisfying(RequestException.class, e -> {
                    assertThat(e.field()).isEqualTo(field);
                    assertThat(e.getMessage()).startsWith(field + ": ").contains(reason);
                });
    }

    @Test
    void refusesAnUnknownTeamWithItsOwnErrorListingTheKnownOnes() {
        assertThatThrownBy(() -> validator.validate(
                        ValidatorInput.of().team("team-x").count(1).input(), TEAMS))
                .isInstanceOfSatisfying(UnknownTeamException.class, e -> {
                    assertThat(e.team()).isEqualTo("team-x");
                    assertThat(e.getMessage()).contains("team-a");
                });
    }

    @Test
    void aRecordedRequestOfARemovedTeamStillValidatesWithoutTheTeamCheck() {
        JobSpec spec = validator.validateRequest(
                ValidatorInput.of().team("team-x").count(1).input());
        assertThat(spec.team()).isEqualTo("team-x");
    }

    @Test
    void aRefusedEmptyRequestNamesTheBody() {
        assertThatThrownBy(() -> validator.validate(null, TEAMS))
                .isInstanceOf(RequestException.class)
                .hasMessageStartingWith("body:");
    }

    @Test
    void wholeGpusWithDefaults() {
        JobSpec spec = validator.validate(ValidatorInput.of().count(4).input(), TEAMS);
        assertThat(spec.id()).isEqualTo(new JobId("team-a", "train-1"));
        assertThat(spec.gpu()).isEqualTo(new GpuRequest.WholeGpus(4));
        assertThat(spec.preemptible()).isTrue();
        assertThat(spec.priority()).isZero();
        assertThat(spec.minRuntime()).isEqualTo(Duration.ZERO);
        assertThat(spec.cpuMilli()).isZero();
    }

    @Test
    void aFractionWithLimitOnSeveralDevicesIsHeldInMilli() {
        JobSpec spec = validator.validate(
                ValidatorInput.of().fraction(0.25, 0.8).devices(4).input(), TEAMS);
        assertThat(spec.gpu()).isEqualTo(new GpuRequest.Fraction(250, 800, 4));
    }

    /** Thousandths written in decimal are not exact in binary (0.3 · 1000 is 300.00000000000006): read as written. */
    @Test
    void aFractionOfThousandthsIsHeldExactlyAsWritten() {
        for (int milli : new int[] {1, 3, 7, 29, 125, 300, 333, 577, 999}) {
            assertThat(validator
                            .validate(
                                    ValidatorInput.of()
                                            .fraction(milli / 1000.0, null)
                                            .input(),
                                    TEAMS)
                            .gpu())
                    .as("%d milli", milli)
                    .isEqualTo(new GpuRequest.Fraction(milli, milli, 1));
        }
        assertThat(validator
                        .validate(
                                ValidatorInput.of()
                                        .resources(null, JobSpecValidator.MAX_MEMORY_MIB)
                                        .input(),
                                TEAMS)
                        .memoryMib())
                .isEqualTo(JobSpecValidator.MAX_MEMORY_MIB);
    }

    @Test
    void aFractionWithoutLimitHasItsRequestAsLimitAndMayBurstToAWholeGpu() {
        assertThat(validator
                        .validate(ValidatorInput.of().fraction(0.5, null).input(), TEAMS)
                        .gpu())
                .isEqualTo(new GpuRequest.Fraction(500, 500, 1));
        assertThat(validator
                        .validate(ValidatorInput.of().fraction(0.5, 1.0).input(), TEAMS)
                        .gpu())
                .isEqualTo(new GpuRequest.Fraction(500, 1000, 1));
    }

    @Test
    void memoryRequestsKeepTheirMib() {
        JobSpec spec =
                validator.validate(ValidatorInput.of().memory(2000L, 4000L).input(), TEAMS);
        assertThat(spec.gpu()).isEqualTo(new GpuRequest.Memory(2000, 4000, 1));
    }

    @Test
    void noGpuIsACpuOnlyJobAndSchedulingFieldsAreKept() {
        JobSpec spec = validator.validate(
                ValidatorInput.of()
                        .resources(2000L, 4096L)
                        .scheduling(5, false, 600L)
                        .input(),
                TEAMS);
        assertThat(spec.gpu()).isInstanceOf(GpuRequest.None.class);
        assertThat(spec.cpuMilli()).isEqualTo(2000);
        assertThat(spec.memoryMib()).isEqualTo(4096);
        assertThat(spec.priority()).isEqualTo(5);
        assertThat(spec.preemptible()).isFalse();
        assertThat(spec.minRuntime()).isEqualTo(Duration.ofMinutes(10));
    }

    /** Models are read as written: a space around one is refused (badRequests), not trimmed into another name. */
    @Test
    void allowedModelsAreKeptAsWritten() {
        JobSpec spec = validator.validate(
                ValidatorInput.of().count(1).models(List.of("H100", "A100")).input(), TEAMS);
        assertThat(spec.allowedModels()).containsExactlyInAnyOrder("H100", "A100");
    }

    @Test
    void aNameOfExactly63CharactersIsAccepted() {
        String name = "a".repeat(63);
        assertThat(validator
                        .validate(ValidatorInput.of().name(name).count(1).input(), TEAMS)
                        .id()
                        .name())
                .isEqualTo(name);
    }
}
