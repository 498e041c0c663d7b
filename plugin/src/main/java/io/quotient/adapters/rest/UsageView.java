package io.quotient.adapters.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quotient.core.usage.UsageCounters;
import io.quotient.core.usage.UsageSummary;
import java.util.List;
import java.util.Locale;

/**
 * One showback row in GPU-hours and GiB-hours (docs/usage.md defines each figure).
 *
 * @param team        null when grouped by department
 * @param job         null unless grouped by job
 * @param department  null for teams outside any department
 * @param utilization used over measured GPU-hours, 0..1; null when nothing was measured
 * @param bucket      the start of the UTC hour or day the row is of (ISO-8601), when the request asked for a
 *                    {@code bucket}; left out otherwise
 */
public record UsageView(
        String department,
        String team,
        String job,
        double allocatedGpuHours,
        double inQuotaGpuHours,
        double borrowedGpuHours,
        double usedGpuHours,
        double idleGpuHours,
        double unmeasuredGpuHours,
        Double utilization,
        double reservedMemoryGibHours,
        double usedMemoryGibHours,
        @JsonInclude(JsonInclude.Include.NON_NULL) String bucket) {

    /** The CSV columns, in order. */
    static final List<String> COLUMNS = List.of(
            "department",
            "team",
            "job",
            "allocatedGpuHours",
            "inQuotaGpuHours",
            "borrowedGpuHours",
            "usedGpuHours",
            "idleGpuHours",
            "unmeasuredGpuHours",
            "utilization",
            "reservedMemoryGibHours",
            "usedMemoryGibHours");

    private static final double HOUR = 3600;
    private static final double GIB_HOUR = 1024 * HOUR;

    static UsageView of(UsageSummary.Row row) {
        UsageCounters c = row.counters();
        return new UsageView(
                blankToNull(row.department()),
                blankToNull(row.team()),
                blankToNull(row.job()),
                round(c.allocatedGpuSeconds() / HOUR),
                round(c.allocatedInQuotaGpuSeconds() / HOUR),
                round(c.allocatedBorrowedGpuSeconds() / HOUR),
                round(c.usedGpuSeconds() / HOUR),
                round(c.idleGpuSeconds() / HOUR),
                round(c.unmeasuredGpuSeconds() / HOUR),
                c.utilization().isPresent() ? round(c.utilization().getAsDouble()) : null,
                round(c.reservedMemoryMibSeconds() / GIB_HOUR),
                round(c.usedMemoryMibSeconds() / GIB_HOUR),
                row.bucket() == null ? null : row.bucket().toString());
    }

    /**
     * The row as CSV fields (RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled), after
     * its bucket's start when it has one (the column {@code bucket} first).
     */
    String csvLine() {
        return (bucket == null ? "" : bucket + ",")
                + String.join(
                        ",",
                        csv(department),
                        csv(team),
                        csv(job),
                        number(allocatedGpuHours),
                        number(inQuotaGpuHours),
                        number(borrowedGpuHours),
                        number(usedGpuHours),
                        number(idleGpuHours),
                        number(unmeasuredGpuHours),
                        utilization == null ? "" : number(utilization),
                        number(reservedMemoryGibHours),
                        number(usedMemoryGibHours));
    }

    private static String csv(String value) {
        if (value == null) {
            return "";
        }
        // a leading = + - @ would be a formula to a spreadsheet: names never start so, but a cell must not compute
        String safe = !value.isEmpty() && "=+-@".indexOf(value.charAt(0)) >= 0 ? "'" + value : value;
        return safe.matches(".*[,\"\r\n].*") ? "\"" + safe.replace("\"", "\"\"") + "\"" : safe;
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, "%.4f", value);
    }

    private static double round(double value) {
        return Math.round(value * 10_000) / 10_000.0;
    }

    private static String blankToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }
}
