package io.quotient.it.soak;

import java.nio.file.Path;
import java.time.Duration;

/**
 * One soak run's knobs; the long soak reads them from system properties ({@code -Dquotient.soak.duration=30m ...}).
 *
 * @param seed           the random stream of operations and faults
 * @param chaos          how long operations and faults run; then faults stop and the reclaim deadline runs
 * @param nodes          fake GPU nodes at the start (and at least at the end)
 * @param gpusPerNode    GPUs per node (small, so that teams contend)
 * @param teams          teams doing operations (plus the recovery probes' team)
 * @param operationGap   mean pause between two operations
 * @param faultGap       pause between the recovery from one fault and the next fault, from its half to its whole
 * @param settle         how long a passing state (orphan Job, idle reservation, duplicate pod) may last
 * @param reclaimDeadline how long after faults stop every team must hold min(guarantee, demand)
 * @param observeEvery   pause between two looks at the API server
 * @param historyDir     where the history file goes
 * @param removeBusyNodes whether nodes holding jobs are removed too (the default: Quotient re-queues the jobs of a
 *                        node that leaves the cluster), or only idle ones ({@code -Dquotient.soak.removeBusyNodes=false})
 */
record SoakSettings(
        long seed,
        Duration chaos,
        int nodes,
        int gpusPerNode,
        int teams,
        Duration operationGap,
        Duration faultGap,
        Duration settle,
        Duration reclaimDeadline,
        Duration observeEvery,
        Path historyDir,
        boolean removeBusyNodes) {

    SoakSettings {
        if (nodes < 1
                || gpusPerNode < 2
                || teams < 2
                || chaos.isNegative()
                || operationGap.isZero()
                || faultGap.isZero()) {
            throw new IllegalArgumentException(
                    "a soak needs nodes >= 1, gpusPerNode >= 2, teams >= 2 and positive" + " durations; got " + this);
        }
    }

    /** The short soak of the normal suite: fixed seed, about three minutes. */
    static SoakSettings shortRun(Path historyDir) {
        return new SoakSettings(
                16,
                Duration.ofSeconds(100),
                40,
                2,
                4,
                Duration.ofMillis(400),
                Duration.ofSeconds(10),
                Duration.ofSeconds(30),
                Duration.ofSeconds(60),
                Duration.ofSeconds(2),
                historyDir,
                true);
    }

    /** The long soak's settings for one seed, from system properties over the short run's. */
    static SoakSettings fromProperties(long seed, Path historyDir) {
        SoakSettings base = shortRun(historyDir);
        return new SoakSettings(
                seed,
                duration("quotient.soak.duration", Duration.ofMinutes(30)),
                Integer.getInteger("quotient.soak.nodes", 60),
                Integer.getInteger("quotient.soak.gpusPerNode", 2),
                Integer.getInteger("quotient.soak.teams", 4),
                duration("quotient.soak.operationGap", base.operationGap()),
                duration("quotient.soak.faultGap", Duration.ofSeconds(20)),
                base.settle(),
                base.reclaimDeadline(),
                base.observeEvery(),
                historyDir,
                Boolean.parseBoolean(System.getProperty("quotient.soak.removeBusyNodes", "true")));
    }

    /** A duration property: {@code 90s}, {@code 30m} or ISO-8601 ({@code PT30M}). */
    static Duration duration(String property, Duration fallback) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        String v = value.trim().toLowerCase();
        try {
            if (v.startsWith("pt")) {
                return Duration.parse(v.toUpperCase());
            }
            long amount = Long.parseLong(v.substring(0, v.length() - 1));
            return switch (v.charAt(v.length() - 1)) {
                case 's' -> Duration.ofSeconds(amount);
                case 'm' -> Duration.ofMinutes(amount);
                case 'h' -> Duration.ofHours(amount);
                default -> throw new NumberFormatException("unit");
            };
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "-D" + property + "=" + value + " is not a duration; write e.g. 90s, 30m" + " or PT30M", e);
        }
    }

    long capacityMilli() {
        return (long) nodes * gpusPerNode * 1000;
    }
}
