package io.quotient.core.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JobSpecValidatorTest {

    private static final Map<String, Team> TEAMS = Map.of("team-a", Team.of("team-a", 20));
    private final JobSpecValidator validator = new JobSpecValidator();

    /** A request builder: every field null except team and name, overridden per test. */
    private record In(
            String team,
            String name,
            Integer count,
            Double fraction,
            Double fractionLimit,
            Long mib,
            Long mibLimit,
            Integer devices,
            Long cpu,
            Long memory,
            Integer priority,
            Boolean preemptible,
            Long minRuntime,
            Set<String> models) {
        static In of() {
            return new In("team-a", "train-1", null, null, null, null, null, null, null, null, null, null, null, null);
        }

        In count(Integer c) {
            return new In(
                    team,
                    name,
                    c,
                    fraction,
                    fractionLimit,
                    mib,
                    mibLimit,
                    devices,
                    cpu,
                    memory,
                    priority,
                    preemptible,
                    minRuntime,
                    models);
        }

        In fraction(Double f, Double limit) {
            return new In(
                    team,
                    name,
                    count,
                    f,
                    limit,
                    mib,
                    mibLimit,
                    devices,
                    cpu,
                    memory,
                    priority,
                    preemptible,
                    minRuntime,
                    models);
        }

        In memory(Long m, Long limit) {
            return new In(
                    team,
                    name,
                    count,
                    fraction,
                    fractionLimit,
                    m,
                    limit,
                    devices,
                    cpu,
                    memory,
                    priority,
                    preemptible,
                    minRuntime,
                    models);
        }

        In devices(Integer d) {
            return new In(
                    team,
                    name,
                    count,
                    fraction,
                    fractionLimit,
                    mib,
                    mibLimit,
                    d,
                    cpu,
                    memory,
                    priority,
                    preemptible,
                    minRuntime,
                    models);
        }

        In name(String n) {
            return new In(
                    team,
                    n,
                    count,
                    fraction,
                    fractionLimit,
                    mib,
                    mibLimit,
                    devices,
                    cpu,
                    memory,
                    priority,
                    preemptible,
                    minRuntime,
                    models);
        }

        In team(String t) {
            return new In(
                    t,
                    name,
                    count,
                    fraction,
                    fractionLimit,
                    mib,
                    mibLimit,
                    devices,
                    cpu,
                    memory,
                    priority,
                    preemptible,
                    minRuntime,
                    models);
        }

        In resources(Long c, Long m) {
            return new In(
                    team,
                    name,
                    count,
                    fraction,
                    fractionLimit,
                    mib,
                    mibLimit,
                    devices,
                    c,
                    m,
                    priority,
                    preemptible,
                    minRuntime,
                    models);
        }

        In scheduling(Integer p, Boolean pre, Long min) {
            return new In(
                    team,
                    name,
                    count,
                    fraction,
                    fractionLimit,
                    mib,
                    mibLimit,
                    devices,
                    cpu,
                    memory,
                    p,
                    pre,
                    min,
                    models);
        }

        In models(Set<String> m) {
            return new In(
                    team,
                    name,
                    count,
                    fraction,
                    fractionLimit,
                    mib,
                    mibLimit,
                    devices,
                    cpu,
                    memory,
                    priority,
                    preemptible,
                    minRuntime,
                    m);
        }

        JobRequestInput input() {
            return JobRequestInput.of(team, name)
                    .with(new GpuAsk(count, fraction, fractionLimit, mib, mibLimit, devices))
                    .with(new Resources(cpu, memory))
                    .with(new Placement(models))
                    .with(new RuntimeOptions(priority, preemptible, minRuntime));
        }
    }

    static Stream<Arguments> badRequests() {
        return Stream.of(
                Arguments.of(In.of().name(null), "name", "is required"),
                Arguments.of(In.of().name(" "), "name", "is required"),
                Arguments.of(In.of().name("Train_1"), "name", "DNS-1123"),
                Arguments.of(In.of().name("-train"), "name", "DNS-1123"),
                Arguments.of(In.of().name("a".repeat(64)), "name", "at most 63"),
                Arguments.of(In.of().team(null), "team", "is required"),
                Arguments.of(In.of().count(0), "gpu.count", "at least 1"),
                Arguments.of(In.of().count(-2), "gpu.count", "at least 1"),
                Arguments.of(In.of().fraction(0.0, null), "gpu.fraction", "greater than 0 and less than 1"),
                Arguments.of(In.of().fraction(1.0, null), "gpu.fraction", "less than 1"),
                Arguments.of(In.of().fraction(-0.5, null), "gpu.fraction", "greater than 0"),
                Arguments.of(In.of().fraction(Double.NaN, null), "gpu.fraction", "greater than 0"),
                Arguments.of(In.of().fraction(0.0001, null), "gpu.fraction", "smallest share"),
                Arguments.of(In.of().fraction(0.9999, null), "gpu.fraction", "rounds to a whole GPU"),
                Arguments.of(In.of().fraction(0.0015, null), "gpu.fraction", "finer than a thousandth"),
                Arguments.of(In.of().fraction(0.1234, null), "gpu.fraction", "(such as 0.123)"),
                Arguments.of(In.of().fraction(0.5, 0.5005), "gpu.fractionLimit", "at most three decimals"),
                Arguments.of(
                        In.of().resources(null, JobSpecValidator.MAX_MEMORY_MIB + 1),
                        "memoryMib",
                        "at most 8796093022207 MiB"),
                Arguments.of(In.of().fraction(0.5, 0.4), "gpu.fractionLimit", "must not be below gpu.fraction"),
                Arguments.of(In.of().fraction(0.5, 1.5), "gpu.fractionLimit", "at most 1"),
                Arguments.of(In.of().fraction(null, 0.5), "gpu.fractionLimit", "needs gpu.fraction"),
                Arguments.of(
                        In.of().fraction(0.5, null).memory(2000L, null),
                        "gpu.memoryMib",
                        "cannot be combined with gpu.fraction"),
                Arguments.of(In.of().count(1).fraction(0.5, null), "gpu.count", "cannot be combined"),
                Arguments.of(In.of().count(1).memory(2000L, null), "gpu.count", "cannot be combined"),
                Arguments.of(In.of().memory(0L, null), "gpu.memoryMib", "must be from 1 to 1048576 MiB"),
                Arguments.of(In.of().memory(Long.MAX_VALUE, null), "gpu.memoryMib", "must be from 1 to 1048576 MiB"),
                Arguments.of(
                        In.of().memory(2000L, Long.MAX_VALUE), "gpu.memoryLimitMib", "must be from 1 to 1048576 MiB"),
                Arguments.of(In.of().count(1_000_000), "gpu.count", "at most 1024 GPUs per replica"),
                Arguments.of(
                        In.of().scheduling(null, null, 3601L),
                        "minRuntimeSeconds",
                        "at most 3600 seconds are allowed on this cluster"),
                Arguments.of(In.of().scheduling(null, null, Long.MAX_VALUE), "minRuntimeSeconds", "at most 3600"),
                Arguments.of(In.of().count(1).models(Set.of("A100\u0000")), "gpuModels", "control characters"),
                Arguments.of(
                        In.of().count(1).models(Set.of("A100-SXM4-80GB ")), "gpuModels", "is not a GPU model name"),
                Arguments.of(
                        In.of().count(1).models(Set.of(" A100-SXM4-80GB")), "gpuModels", "is not a GPU model name"),
                Arguments.of(In.of().memory(4000L, 2000L), "gpu.memoryLimitMib", "must not be below gpu.memoryMib"),
                Arguments.of(In.of().memory(null, 2000L), "gpu.memoryLimitMib", "needs gpu.memoryMib"),
                Arguments.of(In.of().devices(2), "gpuDevices", "applies only to gpu.fraction or gpu.memoryMib"),
                Arguments.of(In.of().count(2).devices(2), "gpuDevices", "applies only to"),
                Arguments.of(In.of().fraction(0.5, null).devices(0), "gpuDevices", "must be from 1 to 1024"),
                Arguments.of(In.of().resources(-1L, null), "cpuMilli", "must not be negative"),
                Arguments.of(In.of().resources(null, -1L), "memoryMib", "must not be negative"),
                Arguments.of(In.of().scheduling(1001, null, null), "priority", "between -1000 and 1000"),
                Arguments.of(In.of().scheduling(-1001, null, null), "priority", "between -1000 and 1000"),
                Arguments.of(In.of().scheduling(null, null, -5L), "minRuntimeSeconds", "must not be negative"),
                Arguments.of(In.of().models(Set.of("A100")), "gpuModels", "only to jobs that request GPUs"),
                Arguments.of(
                        In.of().count(1).models(new HashSet<>(Arrays.asList("A100", " "))),
                        "gpuModels",
                        "empty model names"));
    }

    /** Issue 31: the cluster bounds minRuntimeSeconds, one hour unless configured, for new and stored jobs alike. */
    @Test
    void minimumRuntimeIsBoundedByTheClustersMaximum() {
        assertThat(validator
                        .validate(In.of().scheduling(null, null, 3600L).input(), TEAMS)
                        .minRuntime())
                .isEqualTo(Duration.ofHours(1));
        JobSpecValidator twoHours = new JobSpecValidator(Duration.ofHours(2));
        assertThat(twoHours.validate(In.of().scheduling(null, null, 7200L).input(), TEAMS)
                        .minRuntime())
                .isEqualTo(Duration.ofHours(2));
        assertThatThrownBy(() -> twoHours.validateRequest(
                        In.of().scheduling(null, null, 7201L).input()))
                .isInstanceOfSatisfying(
                        RequestException.class, e -> assertThat(e.field()).isEqualTo("minRuntimeSeconds"))
                .hasMessageContaining("at most 7200 seconds are allowed on this cluster");
    }

    @ParameterizedTest
    @MethodSource("badRequests")
    void refusesABadRequestNamingTheFieldAndReason(In request, String field, String reason) {
        assertThatThrownBy(() -> validator.validate(request.input(), TEAMS))
                .isInstanceOfSatisfying(RequestException.class, e -> {
                    assertThat(e.field()).isEqualTo(field);
                    assertThat(e.getMessage()).startsWith(field + ": ").contains(reason);
                });
    }

    @Test
    void refusesAnUnknownTeamWithItsOwnErrorListingTheKnownOnes() {
        assertThatThrownBy(
                        () -> validator.validate(In.of().team("team-x").count(1).input(), TEAMS))
                .isInstanceOfSatisfying(UnknownTeamException.class, e -> {
                    assertThat(e.team()).isEqualTo("team-x");
                    assertThat(e.getMessage()).contains("team-a");
                });
    }

    @Test
    void aRecordedRequestOfARemovedTeamStillValidatesWithoutTheTeamCheck() {
        JobSpec spec = validator.validateRequest(In.of().team("team-x").count(1).input());
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
        JobSpec spec = validator.validate(In.of().count(4).input(), TEAMS);
        assertThat(spec.id()).isEqualTo(new JobId("team-a", "train-1"));
        assertThat(spec.gpu()).isEqualTo(new GpuRequest.WholeGpus(4));
        assertThat(spec.preemptible()).isTrue();
        assertThat(spec.priority()).isZero();
        assertThat(spec.minRuntime()).isEqualTo(Duration.ZERO);
        assertThat(spec.cpuMilli()).isZero();
    }

    @Test
    void aFractionWithLimitOnSeveralDevicesIsHeldInMilli() {
        JobSpec spec = validator.validate(In.of().fraction(0.25, 0.8).devices(4).input(), TEAMS);
        assertThat(spec.gpu()).isEqualTo(new GpuRequest.Fraction(250, 800, 4));
    }

    /** Thousandths written in decimal are not exact in binary (0.3 · 1000 is 300.00000000000006): read as written. */
    @Test
    void aFractionOfThousandthsIsHeldExactlyAsWritten() {
        for (int milli : new int[] {1, 3, 7, 29, 125, 300, 333, 577, 999}) {
            assertThat(validator
                            .validate(In.of().fraction(milli / 1000.0, null).input(), TEAMS)
                            .gpu())
                    .as("%d milli", milli)
                    .isEqualTo(new GpuRequest.Fraction(milli, milli, 1));
        }
        assertThat(validator
                        .validate(
                                In.of()
                                        .resources(null, JobSpecValidator.MAX_MEMORY_MIB)
                                        .input(),
                                TEAMS)
                        .memoryMib())
                .isEqualTo(JobSpecValidator.MAX_MEMORY_MIB);
    }

    @Test
    void aFractionWithoutLimitHasItsRequestAsLimitAndMayBurstToAWholeGpu() {
        assertThat(validator
                        .validate(In.of().fraction(0.5, null).input(), TEAMS)
                        .gpu())
                .isEqualTo(new GpuRequest.Fraction(500, 500, 1));
        assertThat(validator.validate(In.of().fraction(0.5, 1.0).input(), TEAMS).gpu())
                .isEqualTo(new GpuRequest.Fraction(500, 1000, 1));
    }

    @Test
    void memoryRequestsKeepTheirMib() {
        JobSpec spec = validator.validate(In.of().memory(2000L, 4000L).input(), TEAMS);
        assertThat(spec.gpu()).isEqualTo(new GpuRequest.Memory(2000, 4000, 1));
    }

    @Test
    void noGpuIsACpuOnlyJobAndSchedulingFieldsAreKept() {
        JobSpec spec = validator.validate(
                In.of().resources(2000L, 4096L).scheduling(5, false, 600L).input(), TEAMS);
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
                In.of().count(1).models(Set.of("H100", "A100")).input(), TEAMS);
        assertThat(spec.allowedModels()).containsExactlyInAnyOrder("H100", "A100");
    }

    @Test
    void aNameOfExactly63CharactersIsAccepted() {
        String name = "a".repeat(63);
        assertThat(validator
                        .validate(In.of().name(name).count(1).input(), TEAMS)
                        .id()
                        .name())
                .isEqualTo(name);
    }
}
