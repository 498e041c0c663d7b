package io.quotient.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Renders {@link FamilyBenchmark} rows as a table (one line per family) and as one JSON object. */
public final class FamilyReport {

    private static final ObjectMapper JSON = new ObjectMapper();

    private FamilyReport() {}

    /**
     * Per family: the reference's mean unallocated %, then per other placement its mean, its ratio to the
     * reference, its worst seed's ratio (and which seed), and its placements per second.
     */
    public static String text(List<FamilyBenchmark.Row> rows) {
        StringBuilder sb = new StringBuilder();
        FamilyBenchmark.Row first = rows.get(0);
        sb.append(String.format(
                Locale.ROOT,
                "%-36s %8s",
                "family (unallocated GPU % at 100 %)",
                first.reference().placement()));
        for (FamilyBenchmark.Result r :
                first.results().subList(1, first.results().size())) {
            sb.append(String.format(
                    Locale.ROOT, " | %-22s %6s %14s %10s", r.placement(), "ratio", "worst seed", "placed/s"));
        }
        sb.append('\n');
        for (FamilyBenchmark.Row row : rows) {
            sb.append(String.format(
                    Locale.ROOT,
                    "%-36s %8.2f",
                    row.family().name(),
                    row.reference().mean()));
            for (FamilyBenchmark.Result r :
                    row.results().subList(1, row.results().size())) {
                sb.append(String.format(
                        Locale.ROOT,
                        " | %-22.2f %6.3f %7.3f (%4d) %10.0f",
                        r.mean(),
                        row.ratio(r),
                        row.worstSeedRatio(r),
                        row.worstSeed(r),
                        r.placementsPerSecond()));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** {@code {"seeds": [...], "families": [{"family", "base", "results": [{placement, mean, ratio, ...}]}]}}. */
    public static String json(List<FamilyBenchmark.Row> rows) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("seeds", rows.isEmpty() ? List.of() : rows.get(0).seeds());
        List<Map<String, Object>> families = new ArrayList<>();
        for (FamilyBenchmark.Row row : rows) {
            Map<String, Object> family = new LinkedHashMap<>();
            family.put("family", row.family().family().name());
            family.put("base", row.family().base());
            List<Map<String, Object>> results = new ArrayList<>();
            for (FamilyBenchmark.Result r : row.results()) {
                Map<String, Object> result = new LinkedHashMap<>();
                result.put("placement", r.placement());
                result.put("meanUnallocatedGpuPct", round(r.mean()));
                result.put("ratioToReference", round(row.ratio(r)));
                result.put("worstSeedRatio", round(row.worstSeedRatio(r)));
                result.put("worstSeed", row.worstSeed(r));
                result.put(
                        "unallocatedGpuPctBySeed",
                        r.unallocatedBySeed().stream().map(FamilyReport::round).toList());
                result.put("placementsPerSecond", Math.round(r.placementsPerSecond()));
                results.add(result);
            }
            family.put("results", results);
            families.add(family);
        }
        root.put("families", families);
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise the family benchmark", e);
        }
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
