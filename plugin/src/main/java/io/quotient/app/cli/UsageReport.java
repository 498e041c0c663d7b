package io.quotient.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The showback table as text, from one answer of {@code GET /api/v1/usage}: one line per group with the GPU-hours
 * allocated (in quota, borrowed), used, idle and unmeasured, and the utilization. The group columns shown are the
 * ones the answer carries (department only when some row has one; job only when grouped by job; the bucket's
 * start first when the rows are over time).
 */
final class UsageReport {

    private static final String[] FIGURES = {
        "allocatedGpuHours", "inQuotaGpuHours", "borrowedGpuHours", "usedGpuHours", "idleGpuHours", "unmeasuredGpuHours"
    };

    private UsageReport() {}

    static String render(JsonNode rows) {
        if (rows.isEmpty()) {
            return "GPU USAGE\n  nothing was allocated in these days\n";
        }
        List<String> groups = new ArrayList<>();
        for (String field : List.of("bucket", "department", "team", "job")) {
            boolean present = false;
            for (JsonNode row : rows) {
                present |= row.path(field).isTextual();
            }
            if (present) {
                groups.add(field);
            }
        }
        List<String> header = new ArrayList<>(
                groups.stream().map(g -> g.toUpperCase(Locale.ROOT)).toList());
        header.addAll(List.of("ALLOCATED", "IN QUOTA", "BORROWED", "USED", "IDLE", "UNMEASURED", "UTILIZATION"));
        TextTable table = new TextTable(header.toArray(String[]::new));
        for (JsonNode row : rows) {
            List<Object> cells = new ArrayList<>();
            groups.forEach(g -> cells.add(row.path(g).isTextual() ? row.path(g).asText() : "-"));
            for (String figure : FIGURES) {
                cells.add(String.format(Locale.ROOT, "%.2f", row.path(figure).asDouble()));
            }
            JsonNode utilization = row.path("utilization");
            cells.add(
                    utilization.isNumber() ? String.format(Locale.ROOT, "%.1f %%", utilization.asDouble() * 100) : "-");
            table.row(cells.toArray());
        }
        return "GPU USAGE  (GPU-hours; used = allocated x measured utilization; unmeasured: no enforcer figure)\n"
                + table.render();
    }
}
