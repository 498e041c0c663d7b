package io.quotient.replay;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The replay's charts (PNG, XChart, rendered headless): per policy, each team's GPUs per hour against its guarantee,
 * and the queueing-delay distribution of every policy in one chart.
 */
public final class ReplayCharts {

    /** The distribution is drawn through at most this many points per policy. */
    private static final int CDF_POINTS = 400;
    /** One colour per team, shared by its GPUs and its guarantee line. */
    private static final Color[] COLOURS = {
        new Color(0x1f77b4),
        new Color(0xff7f0e),
        new Color(0x2ca02c),
        new Color(0xd62728),
        new Color(0x9467bd),
        new Color(0x8c564b),
        new Color(0xe377c2),
        new Color(0x7f7f7f),
        new Color(0xbcbd22),
        new Color(0x17becf)
    };

    private ReplayCharts() {}

    /**
     * Fails unless the charts can be written to {@code dir} (created if need be): checked before a replay, which may
     * run for minutes, rather than after it.
     *
     * @throws UncheckedIOException naming the folder
     */
    public static void requireWritable(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot write the charts to " + dir + ": cannot create the folder ("
                            + e.getClass().getSimpleName() + "); give --charts a folder you may write",
                    e);
        }
        if (!Files.isDirectory(dir) || !Files.isWritable(dir)) {
            throw new UncheckedIOException(
                    "cannot write the charts to " + dir + ": not a folder this user may write; give --charts one",
                    new IOException(dir.toString()));
        }
    }

    /** Writes {@code gpus-per-team-POLICY.png} for each result and {@code queue-delay.png}; returns the files. */
    public static List<Path> write(Path dir, List<ReplayResult> results) {
        System.setProperty("java.awt.headless", "true");
        try {
            Files.createDirectories(dir);
            List<Path> files = new ArrayList<>();
            for (ReplayResult r : results) {
                files.add(save(gpusPerTeam(r), dir.resolve("gpus-per-team-" + r.policy() + ".png")));
            }
            files.add(save(queueDelays(results), dir.resolve("queue-delay.png")));
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the charts to " + dir + ": " + e.getMessage(), e);
        }
    }

    static XYChart gpusPerTeam(ReplayResult r) {
        XYChart chart = new XYChartBuilder()
                .width(1200)
                .height(600)
                .title("GPUs per team over time (" + r.policy() + "), dashed: guarantee")
                .xAxisTitle("hours since start")
                .yAxisTitle("GPUs (hourly mean)")
                .build();
        List<Double> hours = new ArrayList<>();
        long origin = r.hourStartsMs().isEmpty() ? 0 : r.hourStartsMs().get(0);
        r.hourStartsMs().forEach(h -> hours.add((h - origin) / 3_600_000.0));
        for (Map.Entry<String, List<Double>> team : r.gpusPerHour().entrySet()) {
            Metrics m = r.teams().get(team.getKey());
            if (m == null || m.jobs() == 0 || hours.isEmpty()) {
                continue;
            }
            Color colour = COLOURS[chart.getSeriesMap().size() / 2 % COLOURS.length];
            XYSeries held = chart.addSeries(team.getKey(), hours, team.getValue());
            held.setMarker(SeriesMarkers.NONE);
            held.setLineColor(colour);
            double guarantee = r.guaranteesMilli().get(team.getKey()) / 1000.0;
            XYSeries line = chart.addSeries(
                    team.getKey() + " guarantee",
                    List.of(hours.get(0), hours.get(hours.size() - 1)),
                    List.of(guarantee, guarantee));
            line.setMarker(SeriesMarkers.NONE);
            line.setLineColor(colour);
            line.setLineStyle(
                    new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
            line.setShowInLegend(false);
        }
        return chart;
    }

    static XYChart queueDelays(List<ReplayResult> results) {
        XYChart chart = new XYChartBuilder()
                .width(1000)
                .height(600)
                .title("Queueing delay distribution")
                .xAxisTitle("queueing delay (hours)")
                .yAxisTitle("share of the jobs started (%)")
                .build();
        for (ReplayResult r : results) {
            double[] sorted = r.queueDelaysSeconds().stream()
                    .mapToDouble(Double::doubleValue)
                    .sorted()
                    .toArray();
            if (sorted.length == 0) {
                continue;
            }
            int step = Math.max(1, sorted.length / CDF_POINTS);
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (int i = 0; i < sorted.length; i += step) {
                x.add(sorted[i] / 3600);
                y.add(100.0 * (i + 1) / sorted.length);
            }
            x.add(sorted[sorted.length - 1] / 3600);
            y.add(100.0);
            chart.addSeries(r.policy(), x, y).setMarker(SeriesMarkers.NONE);
        }
        return chart;
    }

    private static Path save(XYChart chart, Path file) throws IOException {
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return file;
    }
}
