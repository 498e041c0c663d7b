package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lookup by name that keeps the last hit: the same answers as a map, whichever string names the key. */
class NamedLookupTest {

    @Test
    void anEqualNameInAnotherStringFindsTheSameValue() {
        NamedLookup<List<Integer>> lookup = NamedLookup.empty();
        lookup.getOrCreate("team-a", t -> new ArrayList<>()).add(1);
        lookup.getOrCreate(new String("team-a"), t -> new ArrayList<>()).add(2);
        lookup.getOrCreate("team-b", t -> new ArrayList<>()).add(3);

        assertThat(lookup.get(new String("team-a"))).containsExactly(1, 2);
        assertThat(lookup.get("team-b")).containsExactly(3);
        assertThat(lookup.get("team-c")).isNull();
    }

    @Test
    void inOrderHandsOverTheNamesInTheOrderFirstMade() {
        NamedLookup<List<Integer>> lookup = NamedLookup.inOrder();
        for (String team : List.of("c", "a", "c", "b", "a")) {
            lookup.getOrCreate(team, t -> new ArrayList<>()).add(team.charAt(0) - 'a');
        }

        Map<String, List<Integer>> all = lookup.handOver();

        assertThat(all.keySet()).containsExactly("c", "a", "b");
        assertThat(all.get("c")).containsExactly(2, 2);
        assertThat(all.get("a")).containsExactly(0, 0);
    }

    @Test
    void aCopyIsNotChangedWithItsSource() {
        Map<String, Integer> source = new HashMap<>(Map.of("a", 1));
        NamedLookup<Integer> lookup = NamedLookup.copyOf(source);
        source.put("a", 2);

        assertThat(lookup.get("a")).isEqualTo(1);
    }
}
