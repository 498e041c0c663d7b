package io.quotient.replay;

import io.quotient.sim.TraceFormatException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A CSV file with a header, columns found by name; every error names the file, line and column. Cells hold no
 * commas (the trace formats read here have none), so no quoting is needed.
 */
final class CsvTable {

    private final Path file;
    private final List<String> lines;
    private final String[] header;
    private final Map<String, Integer> positions = new HashMap<>();

    private CsvTable(Path file, List<String> lines) {
        this.file = file;
        this.lines = lines;
        if (lines.isEmpty() || lines.get(0).isBlank()) {
            throw new TraceFormatException(file, "the file is empty; it needs a header line");
        }
        this.header = lines.get(0).strip().split(",", -1);
        for (int i = 0; i < header.length; i++) {
            if (positions.putIfAbsent(header[i].trim(), i) != null) {
                throw new TraceFormatException(file, 1, i + 1, "column " + header[i].trim() + " is named twice");
            }
        }
    }

    static CsvTable read(Path file) {
        try {
            return new CsvTable(file, Files.readAllLines(file, StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            throw new TraceFormatException(file, "no such file; check the path");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e, e);
        }
    }

    Set<String> columns() {
        return positions.keySet();
    }

    /** Fails naming the first required column the header lacks and what the format needs. */
    void require(List<String> required, String format) {
        for (String column : required) {
            if (!positions.containsKey(column)) {
                throw new TraceFormatException(
                        file,
                        1,
                        1,
                        "the header has no column " + column + "; " + format + " needs " + String.join(",", required)
                                + ", found " + String.join(",", header));
            }
        }
    }

    /** Calls {@code handler} for every non-blank data line. */
    void forEachRow(Consumer<Row> handler) {
        for (int i = 1; i < lines.size(); i++) {
            String text = lines.get(i).strip();
            if (!text.isEmpty()) {
                handler.accept(new Row(i + 1, text.split(",", -1)));
            }
        }
    }

    /** One data line. */
    final class Row {
        private final int line;
        private final String[] cells;

        private Row(int line, String[] cells) {
            this.line = line;
            this.cells = cells;
        }

        int line() {
            return line;
        }

        /** The cell's text, trimmed; empty when the column is absent or the row is short. */
        String text(String column) {
            Integer at = positions.get(column);
            return at == null || at >= cells.length ? "" : cells[at].trim();
        }

        /** A required cell's text. */
        String required(String column) {
            String value = text(column);
            if (value.isEmpty()) {
                throw error(column, "the cell is empty; " + column + " is required");
            }
            return value;
        }

        double number(String column, double fallback, double min, double max) {
            String value = text(column);
            if (value.isEmpty()) {
                return fallback;
            }
            try {
                double x = Double.parseDouble(value);
                if (!(x >= min && x <= max)) {
                    throw error(column, column + " must be between " + min + " and " + max + ", was " + value);
                }
                return x;
            } catch (NumberFormatException e) {
                throw error(column, column + " must be a number, was '" + value + "'");
            }
        }

        TraceFormatException error(String column, String problem) {
            Integer at = positions.get(column);
            return new TraceFormatException(file, line, at == null ? 1 : at + 1, problem);
        }
    }
}
