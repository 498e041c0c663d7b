package io.quotient.core.request;

import java.math.BigDecimal;
import java.util.List;

/**
 * A request for {@link JobSpecValidatorTest}: every field null except team and name, set per test. Each test starts
 * from {@link #of()}, so the builder is set in place.
 */
final class ValidatorInput {

    private String team = "team-a";
    private String name = "train-1";
    private Integer count;
    private Double fraction;
    private Double fractionLimit;
    private Long mib;
    private Long mibLimit;
    private Integer devices;
    private Long cpu;
    private Long memory;
    private Integer priority;
    private Boolean preemptible;
    private Long minRuntime;
    private List<String> models;

    private ValidatorInput() {}

    static ValidatorInput of() {
        return new ValidatorInput();
    }

    ValidatorInput count(Integer c) {
        count = c;
        return this;
    }

    ValidatorInput fraction(Double f, Double limit) {
        fraction = f;
        fractionLimit = limit;
        return this;
    }

    ValidatorInput memory(Long m, Long limit) {
        mib = m;
        mibLimit = limit;
        return this;
    }

    ValidatorInput devices(Integer d) {
        devices = d;
        return this;
    }

    ValidatorInput name(String n) {
        name = n;
        return this;
    }

    ValidatorInput team(String t) {
        team = t;
        return this;
    }

    ValidatorInput resources(Long c, Long m) {
        cpu = c;
        memory = m;
        return this;
    }

    ValidatorInput scheduling(Integer p, Boolean pre, Long min) {
        priority = p;
        preemptible = pre;
        minRuntime = min;
        return this;
    }

    ValidatorInput models(List<String> m) {
        models = m;
        return this;
    }

    /** A share as a test writes it: a double's shortest decimal form, or as written when given as text. */
    private static BigDecimal decimal(Double value) {
        return value == null ? null : GpuAsk.decimal(value);
    }

    JobRequestInput input() {
        return JobRequestInput.of(team, name)
                .with(new GpuAsk(count, decimal(fraction), decimal(fractionLimit), mib, mibLimit, devices))
                .with(new Resources(cpu, memory))
                .with(new Placement(models))
                .with(new RuntimeOptions(priority, preemptible, minRuntime));
    }

    /** The request it builds, so that a parameterised test's name says what it sent. */
    @Override
    public String toString() {
        return input().toString();
    }
}
