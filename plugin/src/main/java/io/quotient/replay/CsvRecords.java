package io.quotient.replay;

import io.quotient.sim.TraceFormatException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a CSV file's text into records of cells as RFC 4180 writes them: cells separated by commas, records by LF or
 * CRLF, a cell in double quotes may hold commas and doubled quotes. A leading byte-order mark is skipped
 * (spreadsheets write one). Refused, naming file, line and column: bytes that are not UTF-8, a quote left open, text
 * after a closing quote, and control characters in a cell, line breaks inside quotes included (no cell of a trace
 * format holds one; they would reach logs and charts).
 */
final class CsvRecords {

    /** One record: the line it starts on and its cells, untrimmed. */
    record Record(int line, List<String> cells) {
        boolean isBlank() {
            return cells.size() == 1 && cells.get(0).isBlank();
        }
    }

    private final Path file;
    private final String text;
    private int at;
    private int line = 1;

    private CsvRecords(Path file, String text) {
        this.file = file;
        this.text = text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    /** The records of the file's bytes, blank lines included (the caller skips them). */
    static List<Record> parse(Path file, byte[] bytes) {
        return new CsvRecords(file, utf8(file, bytes)).records();
    }

    private static String utf8(Path file, byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(in, out, true);
        if (result.isError()) {
            // the decoder stops at the first byte that is not UTF-8
            int bad = in.position();
            int line = 1;
            for (int i = 0; i < bad; i++) {
                line += bytes[i] == '\n' ? 1 : 0;
            }
            throw new TraceFormatException(
                    file, "line " + line + " is not UTF-8 text (byte " + (bad + 1) + "); save the file as UTF-8");
        }
        return out.flip().toString();
    }

    private List<Record> records() {
        List<Record> records = new ArrayList<>();
        while (at < text.length()) {
            records.add(record());
        }
        return records;
    }

    private Record record() {
        int starts = line;
        List<String> cells = new ArrayList<>();
        while (true) {
            cells.add(cell(cells.size() + 1));
            if (at >= text.length()) {
                return new Record(starts, cells);
            }
            char c = text.charAt(at++);
            if (c == ',') {
                continue;
            }
            // a line break ends the record: LF, or CR LF
            if (c == '\r' && at < text.length() && text.charAt(at) == '\n') {
                at++;
            }
            line++;
            return new Record(starts, cells);
        }
    }

    /** One cell, up to (not including) the comma or line break after it. */
    private String cell(int column) {
        if (at < text.length() && text.charAt(at) == '"') {
            return quoted(column);
        }
        int from = at;
        while (at < text.length()) {
            char c = text.charAt(at);
            if (c == ',' || c == '\n' || (c == '\r' && at + 1 < text.length() && text.charAt(at + 1) == '\n')) {
                break;
            }
            refuseControl(c, column);
            at++;
        }
        return text.substring(from, at);
    }

    private String quoted(int column) {
        at++;
        StringBuilder cell = new StringBuilder();
        while (true) {
            if (at >= text.length()) {
                throw new TraceFormatException(file, line, column, "the quote opened here is never closed");
            }
            char c = text.charAt(at++);
            if (c == '"') {
                if (at < text.length() && text.charAt(at) == '"') {
                    cell.append('"');
                    at++;
                    continue;
                }
                if (at < text.length() && !endsCell(text.charAt(at))) {
                    throw new TraceFormatException(
                            file, line, column, "text after the closing quote; double a quote inside a quoted cell");
                }
                return cell.toString();
            }
            if (c == '\n' || c == '\r') {
                // no cell of a trace format holds a line break
                throw new TraceFormatException(
                        file, line, column, "the quote opened here is not closed on its line; close it with \"");
            }
            refuseControl(c, column);
            cell.append(c);
        }
    }

    private static boolean endsCell(char c) {
        return c == ',' || c == '\n' || c == '\r';
    }

    private void refuseControl(char c, int column) {
        if (c != '\t' && (Character.isISOControl(c) || c == '\u2028' || c == '\u2029')) {
            throw new TraceFormatException(
                    file,
                    line,
                    column,
                    String.format("the cell holds a control character (U+%04X); remove it", (int) c));
        }
    }
}
