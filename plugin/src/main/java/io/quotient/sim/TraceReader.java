package io.quotient.sim;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.sim.CsvColumns.Column;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Reads the openb CSV files of Alibaba's cluster-trace-gpu-v2023.
 * <ul>
 *   <li>nodes: {@code sn,cpu_milli,memory_mib,gpu,model};</li>
 *   <li>pods: {@code name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,...}; {@code gpu_spec} is empty (any
 *   model) or models joined by {@code |}.</li>
 * </ul>
 * A header line is recognised by its first column name; with one, columns are found by name and
 * {@code memory_mib} and {@code gpu_spec} may be left out (a pod then asks no memory, a node has no memory limit,
 * a pod runs on any model), as in the FGD simulator's published {@code nomem} pod lists. Without a header the columns
 * are in the order above, pods with at least the first five. Anything else that does not parse fails with the file,
 * line and column, so a truncated or foreign file is never half-simulated.
 */
public final class TraceReader {

    private static final List<Column> NODE_COLUMNS = List.of(
            Column.required("sn"),
            Column.required("cpu_milli"),
            Column.optional("memory_mib"),
            Column.required("gpu"),
            Column.required("model"));
    private static final List<Column> POD_COLUMNS = List.of(
            Column.required("name"),
            Column.required("cpu_milli"),
            Column.optional("memory_mib"),
            Column.required("num_gpu"),
            Column.required("gpu_milli"),
            Column.optional("gpu_spec"));

    private TraceReader() {}

    public static List<NodeSpec> readNodes(Path file) {
        List<NodeSpec> nodes = new ArrayList<>();
        forEachRow(file, NODE_COLUMNS, row -> {
            long cpu = row.number("cpu_milli", Long.MAX_VALUE);
            long memory = row.numberOr("memory_mib", Long.MAX_VALUE, Long.MAX_VALUE);
            int gpus = (int) row.number("gpu", 1024);
            String model = row.text("model");
            if (gpus > 0 && model.isEmpty()) {
                throw row.error("model", "a node with GPUs needs a GPU model");
            }
            nodes.add(new NodeSpec(row.text("sn"), cpu, memory, gpus, model, 0));
        });
        if (nodes.isEmpty()) {
            throw new TraceFormatException(file, "no nodes in the file");
        }
        return nodes;
    }

    public static List<TracePod> readPods(Path file) {
        List<TracePod> pods = new ArrayList<>();
        forEachRow(file, POD_COLUMNS, row -> {
            long cpu = row.number("cpu_milli", Long.MAX_VALUE);
            long memory = row.numberOr("memory_mib", Long.MAX_VALUE, 0);
            int gpus = (int) row.number("num_gpu", 1024);
            int milli = (int) row.number("gpu_milli", ResourceDemand.WHOLE);
            if (gpus > 0 && milli == 0) {
                throw row.error("gpu_milli", "gpu_milli must be 1..1000 for a pod with num_gpu " + gpus);
            }
            if (gpus == 0 && milli != 0) {
                throw row.error("gpu_milli", "gpu_milli must be 0 for a pod with num_gpu 0, was " + milli);
            }
            Set<String> models = models(row.text("gpu_spec"));
            ResourceDemand demand = gpus == 0
                    ? ResourceDemand.cpuOnly(cpu, memory)
                    : ResourceDemand.gpus(cpu, memory, gpus, milli, models);
            pods.add(new TracePod(row.text("name"), demand));
        });
        if (pods.isEmpty()) {
            throw new TraceFormatException(file, "no pods in the file");
        }
        return pods;
    }

    /** The GPU models of a {@code A100|H100} list, in order; empty for any model. */
    public static Set<String> models(String spec) {
        Set<String> models = new LinkedHashSet<>();
        for (String model : spec.split("\\|")) {
            if (!model.isBlank()) {
                models.add(model.trim());
            }
        }
        return models;
    }

    private static void forEachRow(Path file, List<Column> known, Consumer<Row> handler) {
        List<String> lines;
        if (Files.isDirectory(file)) {
            throw new TraceFormatException(file, "is a directory; give the CSV file itself");
        }
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new TraceFormatException(file, "no such file; check the path (or the openb variant name)");
        } catch (CharacterCodingException e) {
            throw new TraceFormatException(file, "is not UTF-8 text; save the file as UTF-8 (CSV)");
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read " + file + " (" + e.getClass().getSimpleName() + "); check that it is a readable file",
                    e);
        }
        CsvColumns columns = CsvColumns.positional(known);
        boolean first = true;
        for (int i = 0; i < lines.size(); i++) {
            // a spreadsheet's byte order mark and quotes around a cell are no part of its text
            String text = (i == 0 ? lines.get(i).replaceFirst("^\uFEFF", "") : lines.get(i)).strip();
            if (text.isEmpty()) {
                continue;
            }
            String[] cells = unquoted(text.split(",", -1));
            if (first && isHeader(cells, known)) {
                columns = CsvColumns.fromHeader(file, cells, known);
                first = false;
                continue;
            }
            first = false;
            Row row = new Row(file, i + 1, cells, columns);
            row.requireCells();
            handler.accept(row);
        }
    }

    /** A first row naming any known column is the header, in whatever order its columns come. */
    private static boolean isHeader(String[] cells, List<Column> known) {
        for (String cell : cells) {
            for (Column c : known) {
                if (c.name().equals(cell.trim())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String[] unquoted(String[] cells) {
        for (int i = 0; i < cells.length; i++) {
            String c = cells[i].trim();
            if (c.length() >= 2 && c.startsWith("\"") && c.endsWith("\"")) {
                cells[i] = c.substring(1, c.length() - 1).replace("\"\"", "\"");
            }
        }
        return cells;
    }

    /** One CSV row with its position, for messages that point at the bad cell. */
    private record Row(Path file, int line, String[] cells, CsvColumns columns) {

        /** The cell of a column, "" where the column or the cell is absent. */
        String text(String column) {
            OptionalInt position = columns.position(column);
            return position.isPresent() && position.getAsInt() < cells.length ? cells[position.getAsInt()].trim() : "";
        }

        void requireCells() {
            if (cells.length < columns.fewestCells()) {
                throw new TraceFormatException(
                        file,
                        line,
                        1,
                        "expected at least " + columns.fewestCells() + " comma-separated columns (" + columns.describe()
                                + "), found " + cells.length);
            }
        }

        long number(String column, long max) {
            String value = text(column);
            long parsed;
            try {
                parsed = Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw error(column, column + " must be a whole number, was '" + value + "'");
            }
            if (parsed < 0 || parsed > max) {
                throw error(column, column + " must be between 0 and " + max + ", was " + parsed);
            }
            return parsed;
        }

        /** A number from an optional column: {@code absent} where the file has no such column. */
        long numberOr(String column, long max, long absent) {
            return columns.position(column).isPresent() ? number(column, max) : absent;
        }

        TraceFormatException error(String column, String problem) {
            return new TraceFormatException(file, line, columns.position(column).orElse(0) + 1, problem);
        }
    }
}
