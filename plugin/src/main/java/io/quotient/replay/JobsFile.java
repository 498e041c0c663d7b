package io.quotient.replay;

import io.quotient.sim.TraceFormatException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;

/** Reads a trace of jobs, in the Philly format (recognised by its header) or the replay's own format. */
public final class JobsFile {

    /** The longest time between the first and the last submission: ten years, far beyond any published trace. */
    static final Duration MAX_SPAN = Duration.ofDays(3653);

    private JobsFile() {}

    /**
     * The jobs sorted by submission (then by name, so that equal times keep one order).
     *
     * @throws io.quotient.sim.TraceFormatException naming file, line and column
     */
    public static List<ReplayJob> read(Path file) {
        CsvTable table = CsvTable.read(file);
        List<ReplayJob> jobs =
                PhillyFormat.recognises(table.columns()) ? PhillyFormat.read(table) : GeneralFormat.read(table);
        if (jobs.isEmpty()) {
            throw new TraceFormatException(file, "no jobs in the file");
        }
        return jobs.stream()
                .sorted(Comparator.comparingLong(ReplayJob::submitMs).thenComparing(ReplayJob::name))
                .toList();
    }

    /**
     * Refuses jobs (sorted, as {@link #read} returns them, sliced or not) whose submissions span more than
     * {@link #MAX_SPAN}: the figures keep a record per hour of the replay, and a trace over centuries (times up to
     * 10^11 seconds apart are read) does not fit in memory.
     *
     * @throws TraceFormatException naming the file
     */
    public static void requireReplayableSpan(Path file, List<ReplayJob> sorted) {
        if (sorted.isEmpty()) {
            return;
        }
        long spanMs = sorted.get(sorted.size() - 1).submitMs() - sorted.get(0).submitMs();
        if (spanMs > MAX_SPAN.toMillis()) {
            throw new TraceFormatException(
                    file,
                    "its submissions span " + Duration.ofMillis(spanMs).toDays() + " days, more than the "
                            + MAX_SPAN.toDays() + " a replay covers; replay a slice of it (--from, --to, --days)");
        }
    }

    /** Whether the file's header is the Philly trace's. */
    public static boolean isPhilly(Path file) {
        return PhillyFormat.recognises(CsvTable.read(file).columns());
    }
}
