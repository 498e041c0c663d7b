package io.quotient.replay;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/** The readable form: one table row per policy, with the measures the comparison is about. */
public final class ReplayText {

    private static final String[] HEADERS = {
        "policy",
        "jobs",
        "done",
        "alloc%wait",
        "qdelay p50",
        "p95",
        "p99",
        "jct p50",
        "p95",
        "ttg p50",
        "p99",
        "deficit GPUh",
        "preempt",
        "moves",
        "lost GPUh",
        "lost%",
        "delivered GPUh",
        "frag job-h",
        "jain",
        "decisions/s"
    };

    /** Added when the trace has idle profiles or the idle policy released something. */
    private static final String[] IDLE_HEADERS = {
        "idle GPUh", "returned GPUh", "stopped GPUh", "idle stops", "idle preempt"
    };

    private ReplayText() {}

    public static String[] headers() {
        return HEADERS.clone();
    }

    /** The headers for these results: the idle columns too when one of them has something to show. */
    public static String[] headers(List<ReplayResult> results) {
        if (!idleShown(results)) {
            return headers();
        }
        return Stream.concat(Arrays.stream(HEADERS), Arrays.stream(IDLE_HEADERS))
                .toArray(String[]::new);
    }

    /** One row of cells per result, in the order of {@link #headers()}. */
    public static List<String[]> rows(List<ReplayResult> results) {
        return results.stream().map(ReplayText::row).toList();
    }

    /** One row of cells per result, in the order of {@link #headers(List)}. */
    public static List<String[]> rowsWithIdle(List<ReplayResult> results) {
        if (!idleShown(results)) {
            return rows(results);
        }
        return results.stream()
                .map(r -> {
                    IdleFigures f = r.overall().idle();
                    String[] idle = {
                        f1(f.idleGpuHours()),
                        f1(f.returnedGpuHours()),
                        f1(f.stoppedGpuHours()),
                        "" + f.stops(),
                        "" + f.preemptions()
                    };
                    return Stream.concat(Arrays.stream(row(r)), Arrays.stream(idle))
                            .toArray(String[]::new);
                })
                .toList();
    }

    private static boolean idleShown(List<ReplayResult> results) {
        return results.stream().anyMatch(r -> r.overall().idle().shown());
    }

    private static String[] row(ReplayResult r) {
        Metrics m = r.overall();
        return new String[] {
            r.policy(),
            "" + m.jobs(),
            "" + m.finished(),
            f1(m.gpuAllocationPctWhileWaiting()),
            duration(m.queueDelaySeconds().p50()),
            duration(m.queueDelaySeconds().p95()),
            duration(m.queueDelaySeconds().p99()),
            duration(m.jctSeconds().p50()),
            duration(m.jctSeconds().p95()),
            duration(m.timeToGuaranteeSeconds().p50()),
            duration(m.timeToGuaranteeSeconds().p99()),
            f1(m.guaranteeDeficitGpuHours()),
            "" + m.preemptions(),
            "" + m.moves(),
            f1(m.lostGpuHours()),
            f1(m.deliveredGpuHours() == 0 ? Double.NaN : 100 * m.lostGpuHours() / m.deliveredGpuHours()),
            f1(m.deliveredGpuHours()),
            f1(m.fragmentationDelayJobHours()),
            f3(m.jainFairness()),
            String.format(Locale.ROOT, "%.0f", r.decisionsPerSecond())
        };
    }

    /** Seconds as the largest sensible unit: 42s, 13.5m, 2.1h, 3.2d. */
    static String duration(double seconds) {
        if (Double.isNaN(seconds)) {
            return "-";
        }
        if (seconds < 60) {
            return String.format(Locale.ROOT, "%.0fs", seconds);
        }
        if (seconds < 3600) {
            return String.format(Locale.ROOT, "%.1fm", seconds / 60);
        }
        if (seconds < 86_400) {
            return String.format(Locale.ROOT, "%.1fh", seconds / 3600);
        }
        return String.format(Locale.ROOT, "%.1fd", seconds / 86_400);
    }

    private static String f1(double x) {
        return Double.isNaN(x) ? "-" : String.format(Locale.ROOT, "%.1f", x);
    }

    private static String f3(double x) {
        return Double.isNaN(x) ? "-" : String.format(Locale.ROOT, "%.3f", x);
    }
}
