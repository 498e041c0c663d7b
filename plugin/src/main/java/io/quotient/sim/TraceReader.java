package io.quotient.sim;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Reads the openb CSV files of Alibaba's cluster-trace-gpu-v2023.
 * <ul>
 *   <li>nodes: {@code sn,cpu_milli,memory_mib,gpu,model};</li>
 *   <li>pods: {@code name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,...} — 11 columns, or only the
 *   first five (no model constraint); {@code gpu_spec} is empty (any model) or models joined by {@code |}.</li>
 * </ul>
 * A header line is recognised by its first column name. Anything else that does not parse fails with the
 * file, line and column, so a truncated or foreign file is never half-simulated.
 */
public final class TraceReader {

    private static final String[] NODE_COLUMNS = {"sn", "cpu_milli", "memory_mib", "gpu", "model"};
    private static final String[] POD_COLUMNS = {"name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli", "gpu_spec"};

    private TraceReader() {
    }

    public static List<NodeSpec> readNodes(Path file) {
        List<NodeSpec> nodes = new ArrayList<>();
        forEachRow(file, NODE_COLUMNS[0], row -> {
            row.requireColumns(5, 5, NODE_COLUMNS);
            long cpu = row.number(1, NODE_COLUMNS[1], Long.MAX_VALUE);
            long memory = row.number(2, NODE_COLUMNS[2], Long.MAX_VALUE);
            int gpus = (int) row.number(3, NODE_COLUMNS[3], 1024);
            String model = row.text(4);
            if (gpus > 0 && model.isEmpty()) {
                throw row.error(5, "a node with GPUs needs a GPU model");
            }
            nodes.add(new NodeSpec(row.text(0), cpu, memory, gpus, model, 0));
        });
        if (nodes.isEmpty()) {
            throw new TraceFormatException(file, "no nodes in the file");
        }
        return nodes;
    }

    public static List<TracePod> readPods(Path file) {
        List<TracePod> pods = new ArrayList<>();
        forEachRow(file, POD_COLUMNS[0], row -> {
            row.requireColumns(5, Integer.MAX_VALUE, POD_COLUMNS);
            long cpu = row.number(1, POD_COLUMNS[1], Long.MAX_VALUE);
            long memory = row.number(2, POD_COLUMNS[2], Long.MAX_VALUE);
            int gpus = (int) row.number(3, POD_COLUMNS[3], 1024);
            int milli = (int) row.number(4, POD_COLUMNS[4], ResourceDemand.WHOLE);
            if (gpus > 0 && milli == 0) {
                throw row.error(5, "gpu_milli must be 1..1000 for a pod with num_gpu " + gpus);
            }
            if (gpus == 0 && milli != 0) {
                throw row.error(5, "gpu_milli must be 0 for a pod with num_gpu 0, was " + milli);
            }
            Set<String> models = row.columns() > 5 ? models(row.text(5)) : Set.of();
            ResourceDemand demand = gpus == 0 ? ResourceDemand.cpuOnly(cpu, memory)
                    : ResourceDemand.gpus(cpu, memory, gpus, milli, models);
            pods.add(new TracePod(row.text(0), demand));
        });
        if (pods.isEmpty()) {
            throw new TraceFormatException(file, "no pods in the file");
        }
        return pods;
    }

    private static Set<String> models(String spec) {
        Set<String> models = new LinkedHashSet<>();
        for (String model : spec.split("\\|")) {
            if (!model.isBlank()) {
                models.add(model.trim());
            }
        }
        return models;
    }

    private static void forEachRow(Path file, String headerFirstColumn, Consumer<Row> handler) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new TraceFormatException(file, "no such file; check the path (or the openb variant name)");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace file " + file + ": " + e, e);
        }
        for (int i = 0; i < lines.size(); i++) {
            String text = lines.get(i).strip();
            if (text.isEmpty() || (i == 0 && text.startsWith(headerFirstColumn + ","))) {
                continue;
            }
            handler.accept(new Row(file, i + 1, text.split(",", -1)));
        }
    }

    /** One CSV row with its position, for messages that point at the bad cell. */
    private record Row(Path file, int line, String[] cells) {

        int columns() {
            return cells.length;
        }

        String text(int column) {
            return cells[column].trim();
        }

        void requireColumns(int min, int max, String[] names) {
            if (cells.length < min || cells.length > max) {
                String expected = min == max ? String.valueOf(min) : "at least " + min;
                throw new TraceFormatException(file, line, 1, "expected " + expected + " comma-separated columns ("
                        + String.join(",", names) + (max > min ? ",..." : "") + "), found " + cells.length);
            }
        }

        long number(int column, String name, long max) {
            String value = text(column);
            long parsed;
            try {
                parsed = Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw error(column + 1, name + " must be a whole number, was '" + value + "'");
            }
            if (parsed < 0 || parsed > max) {
                throw error(column + 1, name + " must be between 0 and " + max + ", was " + parsed);
            }
            return parsed;
        }

        TraceFormatException error(int column, String problem) {
            return new TraceFormatException(file, line, column, problem);
        }
    }
}
