package io.quotient.it.soak;

import com.google.gson.JsonObject;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A soak's history: one JSON object per line (operations, faults, recoveries, observations), each with {@code t},
 * milliseconds since the run started on the wall clock (the clock of Lease and event times). Every entry is also
 * handed to the checker at once, so violations show during the run; the file lets a failing seed be re-checked.
 */
final class History implements AutoCloseable {

    private final long startMillis;
    private final Path file;
    private final BufferedWriter out;
    private final HistoryChecker checker;

    History(Path file, HistoryChecker checker) {
        this.startMillis = System.currentTimeMillis();
        this.file = file;
        this.checker = checker;
        try {
            Files.createDirectories(file.getParent());
            this.out = Files.newBufferedWriter(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the soak history " + file, e);
        }
    }

    /** Now, in the history's time. */
    long now() {
        return System.currentTimeMillis() - startMillis;
    }

    /** A wall-clock instant (epoch ms) in the history's time. */
    long since(long epochMillis) {
        return epochMillis - startMillis;
    }

    /** Appends an entry of this type, stamped now unless it has a {@code t}. */
    JsonObject entry(String type) {
        JsonObject entry = new JsonObject();
        entry.addProperty("t", now());
        entry.addProperty("type", type);
        return entry;
    }

    synchronized void write(JsonObject entry) {
        try {
            out.write(entry.toString());
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the soak history " + file, e);
        }
        checker.accept(entry);
    }

    Path file() {
        return file;
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the soak history " + file, e);
        }
    }
}
