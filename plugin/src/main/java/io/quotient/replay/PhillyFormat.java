package io.quotient.replay;

import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The Philly trace as processed by the Pollux artifact (Jeon et al., ATC'19 publish the raw trace):
 * {@code timestamp,duration,num_gpus,gpu_time,cluster}, one line per job, the virtual cluster being the team. Every
 * job is a preemptible training job of whole GPUs with the default checkpoint interval; a job asking more GPUs than a
 * node holds becomes a gang when the cluster is known ({@link Gangs}). The wall-clock timestamps are read as UTC.
 */
final class PhillyFormat {

    static final List<String> COLUMNS = List.of("timestamp", "duration", "num_gpus", "cluster");
    // strict: 2017-09-31 is no day (the default resolver read it as 09-30 and counted it in the slice to 10-01)
    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss").withResolverStyle(ResolverStyle.STRICT);
    private static final Pattern TIMESTAMP_SHAPE = Pattern.compile("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}");

    private PhillyFormat() {}

    /** Recognised by its header: exactly the Philly columns (gpu_time included), none of the general format's. */
    static boolean recognises(Set<String> columns) {
        return columns.containsAll(COLUMNS) && columns.contains("gpu_time") && !columns.contains("team");
    }

    static List<ReplayJob> read(CsvTable table) {
        table.require(COLUMNS, "the Philly format");
        List<ReplayJob> jobs = new ArrayList<>();
        table.forEachRow(row -> {
            long submit = timestamp(row, "timestamp");
            long durationMs = Math.round(row.number("duration", 0, 0, 1e10) * 1000);
            int gpus = (int) row.whole("num_gpus", 0, 0, 100_000);
            String team = row.required("cluster");
            jobs.add(ReplayJob.wholeGpus("philly-" + (row.line() - 1), team, submit, durationMs, gpus));
        });
        return jobs;
    }

    /** Seconds after the origin a time may be: about 3,000 years, so that every time fits in milliseconds. */
    private static final double MAX_SECONDS = 1e11;

    /**
     * A {@code YYYY-mm-dd HH:MM:SS} timestamp (UTC), an ISO-8601 one ({@code 2017-10-01T08:00:00Z}, with an offset, or
     * without a zone: UTC), or a number of seconds, in epoch milliseconds.
     */
    static long timestamp(CsvTable.Row row, String column) {
        long ms = anyTimestamp(row, column);
        if (ms < 0) {
            // the replay's bookkeeping starts its clock at the origin: a time before it was counted as never started
            throw row.error(
                    column,
                    column
                            + " is before 1970-01-01T00:00:00Z (negative seconds); shift the trace's times to start at or"
                            + " after 0");
        }
        return ms;
    }

    private static long anyTimestamp(CsvTable.Row row, String column) {
        String text = row.required(column);
        try {
            return LocalDateTime.parse(text, TIMESTAMP)
                    .toInstant(ZoneOffset.UTC)
                    .toEpochMilli();
        } catch (DateTimeParseException e) {
            if (TIMESTAMP_SHAPE.matcher(text).matches()) {
                throw row.error(
                        column,
                        column + " '" + text + "' is no time of the calendar ("
                                + e.getMessage().replaceFirst("^Text '.*' could not be parsed: ", "") + ")");
            }
            // not the Philly form: an ISO-8601 time or a number of seconds
        }
        try {
            return OffsetDateTime.parse(text).toInstant().toEpochMilli();
        } catch (DateTimeParseException e) {
            // no offset, or not ISO
        }
        try {
            return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (DateTimeParseException e) {
            // a number, if anything
        }
        double seconds;
        try {
            seconds = Double.parseDouble(text);
        } catch (NumberFormatException notNumber) {
            throw row.error(
                    column,
                    "expected a time as YYYY-mm-dd HH:MM:SS, ISO-8601 (2017-10-01T08:00:00Z) or seconds, was '" + text
                            + "'");
        }
        if (!(Math.abs(seconds) <= MAX_SECONDS)) {
            throw row.error(column, column + " must be seconds between 0 and 1.0E11, was " + text);
        }
        return Math.round(seconds * 1000);
    }
}
