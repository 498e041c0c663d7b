package io.quotient.replay;

import io.quotient.sim.TraceFormatException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;

/** Reads a trace of jobs, in the Philly format (recognised by its header) or the replay's own format. */
public final class JobsFile {

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

    /** Whether the file's header is the Philly trace's. */
    public static boolean isPhilly(Path file) {
        return PhillyFormat.recognises(CsvTable.read(file).columns());
    }
}
