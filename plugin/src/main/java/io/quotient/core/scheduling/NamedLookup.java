package io.quotient.core.scheduling;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * A map by team (or department) name that answers a lookup by the very string of the last one without hashing it
 * again: a planning round asks for one team many times in a row (a team's run of jobs, a search over its
 * candidates), mostly with the string its jobs carry. Single-threaded like the round that owns it; the last hit is
 * one object, so a read sees a name and its value together.
 *
 * @param <V> the value kept per name
 */
final class NamedLookup<V> {

    private record Found<V>(String name, V value) {}

    private final Map<String, V> byName;
    private Found<V> last;

    NamedLookup(Map<String, V> byName) {
        this.byName = new HashMap<>(byName);
    }

    NamedLookup() {
        this(Map.of());
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
        return value != null ? value : byName.computeIfAbsent(name, create);
    }
}
