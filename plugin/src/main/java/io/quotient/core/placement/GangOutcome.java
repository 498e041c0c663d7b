package io.quotient.core.placement;

import io.quotient.core.cluster.Allocation;
import java.util.List;

/** What {@link GangPlacer} decided: every replica's allocation, on distinct nodes, or why the gang waits. */
public sealed interface GangOutcome {

    /** One allocation per placed replica, each on its own node (fewer than asked only for an elastic gang). */
    record Placed(List<Allocation> replicas) implements GangOutcome {
        public Placed {
            replicas = List.copyOf(replicas);
        }
    }

    /** Nothing is booked; the shortfall says what is missing. */
    record Waiting(GangShortfall shortfall) implements GangOutcome {}
}
