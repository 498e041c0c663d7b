package io.quotient.sim;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Where each named column of a trace CSV is. With a header, columns are found by name, so files that leave out or
 * reorder a column read correctly (the FGD simulator's {@code openb_pod_list_nomem.csv} has no {@code memory_mib});
 * without one, they are taken in the openb order. Columns named in no header are ignored.
 */
record CsvColumns(Map<String, Integer> positions, int fewestCells) {

    /** A column the reader knows: required ones must be in a header, optional ones read as their default. */
    record Column(String name, boolean required) {

        static Column required(String name) {
            return new Column(name, true);
        }

        static Column optional(String name) {
            return new Column(name, false);
        }
    }

    /** The openb order, for files without a header: the first {@code fewestCells} columns must be there. */
    static CsvColumns positional(List<Column> columns, int fewestCells) {
        Map<String, Integer> positions = new HashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            positions.put(columns.get(i).name(), i);
        }
        return new CsvColumns(Map.copyOf(positions), fewestCells);
    }

    /** The columns named in {@code header}; fails, naming the file, if a required one is missing or repeated. */
    static CsvColumns fromHeader(Path file, String[] header, List<Column> columns) {
        Map<String, Integer> positions = new HashMap<>();
        int fewestCells = 0;
        for (Column column : columns) {
            int found = -1;
            for (int i = 0; i < header.length; i++) {
                if (header[i].trim().equals(column.name())) {
                    if (found >= 0) {
                        throw new TraceFormatException(file, 1, i + 1, "column " + column.name()
                                + " is named twice in the header (columns " + (found + 1) + " and " + (i + 1) + ")");
                    }
                    found = i;
                }
            }
            if (found >= 0) {
                positions.put(column.name(), found);
                fewestCells = Math.max(fewestCells, found + 1);
            } else if (column.required()) {
                throw new TraceFormatException(file, 1, 1, "the header has no column " + column.name()
                        + "; it needs " + names(columns, true) + " (optional: " + names(columns, false)
                        + "), found " + String.join(",", Arrays.asList(header)));
            }
        }
        return new CsvColumns(Map.copyOf(positions), fewestCells);
    }

    OptionalInt position(String name) {
        Integer position = positions.get(name);
        return position == null ? OptionalInt.empty() : OptionalInt.of(position);
    }

    private static String names(List<Column> columns, boolean required) {
        List<String> names = new ArrayList<>();
        for (Column column : columns) {
            if (column.required() == required) {
                names.add(column.name());
            }
        }
        return String.join(",", names);
    }
}
