package io.quotient.replay;

import java.util.List;

/** The jobs submitted in {@code [fromMs, toMs)}: a slice of a long trace. */
public record TraceSlice(long fromMs, long toMs) {

    public static final TraceSlice ALL = new TraceSlice(Long.MIN_VALUE, Long.MAX_VALUE);

    public TraceSlice {
        if (toMs <= fromMs) {
            throw new IllegalArgumentException("the slice must end after it starts (--to after --from)");
        }
    }

    /** The first {@code days} days of the trace, from its first submission. */
    public static TraceSlice firstDays(List<ReplayJob> jobs, double days) {
        if (!(days > 0)) {
            throw new IllegalArgumentException("--days must be above 0, was " + days);
        }
        long first = jobs.stream().mapToLong(ReplayJob::submitMs).min().orElse(0);
        return new TraceSlice(first, first + Math.round(days * 86_400_000L));
    }

    public List<ReplayJob> of(List<ReplayJob> jobs) {
        return jobs.stream()
                .filter(j -> j.submitMs() >= fromMs && j.submitMs() < toMs)
                .toList();
    }
}
