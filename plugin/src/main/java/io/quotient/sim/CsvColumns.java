package io.quotient.sim;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * Where each named column of a trace CSV is. With a header, columns are found by name, so files that leave out or
 * reorder a column read correctly (the FGD simulator's {@code openb_pod_list_nomem.csv} has no {@code memory_mib});
 * without one, they are taken in the openb order. Columns named in no header are ignored.
 *
 * @param known       the columns the reader knows, in the openb order
 * @param positions   the position of each known column the file has
 * @param fewestCells cells a row needs to hold every column the file has (without a header: up to the last required)
 */
record CsvColumns(List<Column> known, Map<String, Integer> positions, int fewestCells) {

    /** A column the reader knows: required ones must be in a header, optional ones read as their default. */
    record Column(String name, boolean required) {

        static Column required(String name) {
            return new Column(name, true);
        }

        static Column optional(String name) {
            return new Column(name, false);
        }
    }

    /** The openb order, for files without a header: the columns up to the last required one must be there. */
    static CsvColumns positional(List<Column> known) {
        Map<String, Integer> positions = new HashMap<>();
        int fewestCells = 0;
        for (int i = 0; i < known.size(); i++) {
            positions.put(known.get(i).name(), i);
            if (known.get(i).required()) {
                fewestCells = i + 1;
            }
        }
        return new CsvColumns(known, Map.copyOf(positions), fewestCells);
    }

    /** The known columns named in {@code header}; fails, naming the file, if a required one is missing or repeated. */
    static CsvColumns fromHeader(Path file, String[] header, List<Column> known) {
        Map<String, Integer> positions = new HashMap<>();
        for (int i = 0; i < header.length; i++) {
            String name = header[i].trim();
            Integer earlier = positions.putIfAbsent(name, i);
            if (earlier != null && known.stream().anyMatch(c -> c.name().equals(name))) {
                throw new TraceFormatException(
                        file,
                        1,
                        i + 1,
                        "column " + name + " is named twice in the header (columns " + (earlier + 1) + " and " + (i + 1)
                                + ")");
            }
        }
        for (Column column : known) {
            if (column.required() && !positions.containsKey(column.name())) {
                throw new TraceFormatException(
                        file,
                        1,
                        1,
                        "the header has no column " + column.name() + "; it needs " + names(known, true)
                                + " (optional: " + names(known, false) + "), found " + String.join(",", header));
            }
        }
        positions.keySet().retainAll(known.stream().map(Column::name).toList());
        int fewestCells = positions.values().stream().mapToInt(i -> i + 1).max().orElse(0);
        return new CsvColumns(known, Map.copyOf(positions), fewestCells);
    }

    OptionalInt position(String name) {
        Integer position = positions.get(name);
        return position == null ? OptionalInt.empty() : OptionalInt.of(position);
    }

    /** The known columns, for messages: {@code name,cpu_milli,...}. */
    String describe() {
        return known.stream().map(Column::name).collect(Collectors.joining(",")) + ",...";
    }

    private static String names(List<Column> columns, boolean required) {
        return columns.stream()
                .filter(c -> c.required() == required)
                .map(Column::name)
                .collect(Collectors.joining(","));
    }
}
