package io.quotient.app.cli;

import java.util.ArrayList;
import java.util.List;

/** A plain-text table with columns padded to their widest cell, for terminals. */
final class TextTable {

    private final List<String[]> rows = new ArrayList<>();
    private final int columns;

    TextTable(String... headers) {
        columns = headers.length;
        rows.add(headers);
    }

    TextTable row(Object... cells) {
        if (cells.length != columns) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, table has " + columns + " columns");
        }
        String[] text = new String[columns];
        for (int i = 0; i < columns; i++) {
            text[i] = cells[i] == null ? "-" : cells[i].toString();
        }
        rows.add(text);
        return this;
    }

    String render() {
        int[] width = new int[columns];
        for (String[] row : rows) {
            for (int i = 0; i < columns; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] row : rows) {
            for (int i = 0; i < columns; i++) {
                sb.append(i == columns - 1 ? row[i] : String.format("%-" + (width[i] + 2) + "s", row[i]));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
