package io.quotient.replay;

import io.quotient.sim.TraceFormatException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A CSV file with a header, columns found by name; every error names the file, line and column. Records are split as
 * RFC 4180 writes them ({@link CsvRecords}: quoted cells, CRLF, a byte-order mark); a row with more non-empty cells
 * than the header has columns is refused, since it is most often a comma inside a cell that is not quoted, which
 * would shift every cell after it.
 */
final class CsvTable {

    private final Path file;
    private final List<CsvRecords.Record> records;
    private final String[] header;
    private final Map<String, Integer> positions = new HashMap<>();

    private CsvTable(Path file, List<CsvRecords.Record> records) {
        this.file = file;
        this.records = records;
        if (records.isEmpty() || records.get(0).isBlank()) {
            throw new TraceFormatException(file, "the file is empty; it needs a header line");
        }
        this.header = records.get(0).cells().toArray(String[]::new);
        for (int i = 0; i < header.length; i++) {
            if (positions.putIfAbsent(header[i].trim(), i) != null) {
                throw new TraceFormatException(file, 1, i + 1, "column " + header[i].trim() + " is named twice");
            }
        }
    }

    static CsvTable read(Path file) {
        try {
            return new CsvTable(file, CsvRecords.parse(file, Files.readAllBytes(file)));
        } catch (NoSuchFileException e) {
            throw new TraceFormatException(file, "no such file; check the path");
        } catch (IOException e) {
            if (Files.isDirectory(file)) {
                throw new TraceFormatException(file, "is a directory; give the trace's CSV file");
            }
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
        for (int i = 1; i < records.size(); i++) {
            CsvRecords.Record record = records.get(i);
            if (record.isBlank()) {
                continue;
            }
            List<String> cells = record.cells();
            for (int c = header.length; c < cells.size(); c++) {
                if (!cells.get(c).isBlank()) {
                    throw new TraceFormatException(
                            file,
                            record.line(),
                            c + 1,
                            "the row has " + cells.size() + " cells and the header " + header.length
                                    + " columns; quote a cell that holds a comma");
                }
            }
            handler.accept(new Row(record.line(), cells.toArray(String[]::new)));
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

        /**
         * A count (GPUs, replicas, MiB, a priority): a number with no fraction, as {@link #number} bounds it. A
         * fraction is refused, not truncated: 1.5 GPUs read as 1 (and 0.5 as a CPU-only job) changed the trace.
         */
        long whole(String column, long fallback, long min, long max) {
            double x = number(column, fallback, min, max);
            if (x != Math.rint(x)) {
                throw error(column, column + " must be a whole number, was '" + text(column) + "'");
            }
            return (long) x;
        }

        TraceFormatException error(String column, String problem) {
            Integer at = positions.get(column);
            return new TraceFormatException(file, line, at == null ? 1 : at + 1, problem);
        }
    }
}
