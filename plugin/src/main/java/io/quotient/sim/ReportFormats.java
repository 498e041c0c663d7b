package io.quotient.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Renders a {@link SimulationReport} as the JSON object of the simulate command, or as readable text. */
public final class ReportFormats {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Curve rows in the text form: every 10 % of arrival. */
    private static final int TEXT_CURVE_STEP = 10;

    private ReportFormats() {}

    /** One JSON object: policy, cluster and trace sizes, per-seed runs, their mean and the mean curve 0..130 %. */
    public static String json(SimulationReport report) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("policy", report.policy());
        root.put("nodes", report.nodes());
        root.put("gpus", report.gpus());
        root.put("pods", report.pods());
        List<Map<String, Object>> runs = new ArrayList<>();
        for (RunResult r : report.runs()) {
            Map<String, Object> run = new LinkedHashMap<>();
            run.put("seed", r.seed());
            run.put("unallocatedGpuPctAt100", round(r.unallocatedGpuPctAt100()));
            run.put("fragAmountPctAt100", round(r.fragAmountPctAt100()));
            run.put("fragRatioPctAt100", round(r.fragRatioPctAt100()));
            run.put("scheduledPods", r.scheduledPods());
            run.put("failedPods", r.failedPods());
            run.put("placementsPerSecond", Math.round(r.placementsPerSecond()));
            run.put("firstRefusalArrivedPct", roundOrNull(r.firstRefusalArrivedPct()));
            runs.add(run);
        }
        root.put("runs", runs);
        SimulationReport.Mean mean = report.mean();
        Map<String, Object> meanJson = new LinkedHashMap<>();
        meanJson.put("unallocatedGpuPctAt100", round(mean.unallocatedGpuPctAt100()));
        meanJson.put("fragAmountPctAt100", round(mean.fragAmountPctAt100()));
        meanJson.put("fragRatioPctAt100", round(mean.fragRatioPctAt100()));
        meanJson.put("placementsPerSecond", Math.round(mean.placementsPerSecond()));
        meanJson.put("firstRefusalArrivedPct", roundOrNull(mean.firstRefusalArrivedPct()));
        root.put("mean", meanJson);
        List<Map<String, Object>> curve = new ArrayList<>();
        Curve c = report.curve();
        for (int pct = 0; pct <= Curve.MAX_PCT; pct++) {
            if (c.has(pct)) {
                Curve.Point p = c.at(pct);
                Map<String, Object> point = new LinkedHashMap<>();
                point.put("arrivedPct", pct);
                point.put("unallocatedGpuPct", round(p.unallocatedGpuPct()));
                point.put("fragAmountPct", round(p.fragAmountPct()));
                point.put("fragRatioPct", round(p.fragRatioPct()));
                curve.add(point);
            }
        }
        root.put("curve", curve);
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise the simulation report", e);
        }
    }

    /** A per-seed table, the mean, and the mean curve every 10 % of arrival. */
    public static String text(SimulationReport report) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "policy %s on %d nodes / %d GPUs, %d pods inflated to %.0f %% of GPU capacity%n%n",
                report.policy(),
                report.nodes(),
                report.gpus(),
                report.pods(),
                100 * report.inflation()));
        sb.append(String.format(
                Locale.ROOT,
                "%6s  %14s  %12s  %12s  %9s  %7s  %12s  %15s%n",
                "seed",
                "unallocated %",
                "frag amt %",
                "frag ratio %",
                "scheduled",
                "failed",
                "placements/s",
                "1st refusal at"));
        for (RunResult r : report.runs()) {
            sb.append(String.format(
                    Locale.ROOT,
                    "%6d  %14.2f  %12.2f  %12.1f  %9d  %7d  %12.0f  %15s%n",
                    r.seed(),
                    r.unallocatedGpuPctAt100(),
                    r.fragAmountPctAt100(),
                    r.fragRatioPctAt100(),
                    r.scheduledPods(),
                    r.failedPods(),
                    r.placementsPerSecond(),
                    percentOr(r.firstRefusalArrivedPct(), "none")));
        }
        SimulationReport.Mean m = report.mean();
        sb.append(String.format(
                Locale.ROOT,
                "%6s  %14.2f  %12.2f  %12.1f  %9s  %7s  %12.0f  %15s%n%n",
                "mean",
                m.unallocatedGpuPctAt100(),
                m.fragAmountPctAt100(),
                m.fragRatioPctAt100(),
                "",
                "",
                m.placementsPerSecond(),
                percentOr(m.firstRefusalArrivedPct(), "-")));
        sb.append("(figures at arrived = 100 % of GPU capacity)\n\n");
        sb.append(String.format(
                Locale.ROOT, "%9s  %14s  %12s  %12s%n", "arrived %", "unallocated %", "frag amt %", "frag ratio %"));
        Curve c = report.curve();
        for (int pct = 0; pct <= Curve.MAX_PCT; pct += TEXT_CURVE_STEP) {
            if (c.has(pct)) {
                Curve.Point p = c.at(pct);
                sb.append(String.format(
                        Locale.ROOT,
                        "%9d  %14.2f  %12.2f  %12.1f%n",
                        pct,
                        p.unallocatedGpuPct(),
                        p.fragAmountPct(),
                        p.fragRatioPct()));
            }
        }
        return sb.toString();
    }

    /** A percentage, or {@code absent} for NaN (no refusal; for the mean: not every run refused). */
    private static String percentOr(double pct, String absent) {
        return Double.isNaN(pct) ? absent : String.format(Locale.ROOT, "%.2f %%", pct);
    }

    /** NaN (no refusal) as JSON null. */
    private static Double roundOrNull(double value) {
        return Double.isNaN(value) ? null : round(value);
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
