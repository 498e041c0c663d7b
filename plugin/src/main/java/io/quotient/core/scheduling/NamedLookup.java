package io.quotient.core.scheduling;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * A map by team (or department) name that answers a lookup by the very string of the last one without hashing it
 * again: a planning round asks for one team many times in a row (a team's run of jobs, a search over its
 * candidates, a queue or the placed jobs split per team), mostly with the string its jobs carry. An equal name in
 * another string is looked up and finds the same value. Single-threaded like the round that owns it; the last hit
 * is one object, so a read sees a name and its value together.
 *
 * @param <V> the value kept per name
 */
final class NamedLookup<V> {

    private record Found<V>(String name, V value) {}

    private final Map<String, V> byName;
    private Found<V> last;

    private NamedLookup(Map<String, V> owned) {
        this.byName = owned;
    }

    /** A lookup of a copy of {@code byName}. */
    static <V> NamedLookup<V> copyOf(Map<String, V> byName) {
        return new NamedLookup<>(new HashMap<>(byName));
    }

    /** An empty lookup, filled by {@link #getOrCreate}. */
    static <V> NamedLookup<V> empty() {
        return new NamedLookup<>(new HashMap<>());
    }

    /** An empty lookup that keeps its names in the order {@link #getOrCreate} first made them. */
    static <V> NamedLookup<V> inOrder() {
        return new NamedLookup<>(new LinkedHashMap<>());
    }

    /** The value kept for the name; null when there is none. */
    V get(String name) {
        Found<V> found = last;
        if (found != null && found.name() == name) {
            return found.value();
        }
        V value = byName.get(name);
        if (value != null) {
            last = new Found<>(name, value);
        }
        return value;
    }

    /** The value kept for the name, made by {@code create} when there is none yet. */
    V getOrCreate(String name, Function<String, V> create) {
        V value = get(name);
        if (value == null) {
            value = byName.computeIfAbsent(name, create);
            last = new Found<>(name, value);
        }
        return value;
    }

    /**
     * The names and their values (in the lookup's order), handed over: the caller may change the map, and must not
     * use the lookup again.
     */
    Map<String, V> handOver() {
        last = null;
        return byName;
    }
}
