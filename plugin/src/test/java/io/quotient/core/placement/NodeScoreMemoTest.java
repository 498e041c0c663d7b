package io.quotient.core.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.ClusterState;
import io.quotient.core.cluster.ResourceDemand;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The score memo: a result per node state and demand shape, never another node's or another shape's. */
class NodeScoreMemoTest {

    private final ClusterState state = Clusters.uniform(3, 8);
    private final NodeScoreMemo memo = new NodeScoreMemo();

    @Test
    void remembersEachNodesResultForItsShapeUntilTheNodeChanges() {
        ResourceDemand half = Clusters.fraction(500);
        ResourceDemand whole = Clusters.whole(2);
        memo.store(state, 0, half, 12.5, 51, 500, 3);
        memo.store(state, 1, half, -7.25, 48, 100, 7);
        memo.store(state, 0, whole, 0.0, 50, 0, 0);

        assertThat(memo.lookup(state, 1, half)).isTrue();
        assertThat(memo.decrease()).isEqualTo(-7.25);
        assertThat(memo.score()).isEqualTo(48);
        assertThat(memo.left()).isEqualTo(100);
        assertThat(memo.gpu()).isEqualTo(7);
        assertThat(memo.lookup(state, 0, half)).isTrue();
        assertThat(memo.decrease()).isEqualTo(12.5);
        assertThat(memo.left()).isEqualTo(500);
        assertThat(memo.gpu()).isEqualTo(3);
        assertThat(memo.lookup(state, 0, whole)).isTrue();
        assertThat(memo.score()).isEqualTo(50);
        assertThat(memo.lookup(state, 2, half)).as("another node").isFalse();
        assertThat(memo.lookup(state, 0, Clusters.fraction(250)))
                .as("another share")
                .isFalse();
        assertThat(memo.lookup(state, 0, ResourceDemand.gpus(3_000, 4_000, 1, 500, Set.of())))
                .as("another CPU")
                .isFalse();

        Clusters.use(state, 0, 0, 100);
        assertThat(memo.lookup(state, 0, half)).as("node 0 changed").isFalse();
        assertThat(memo.lookup(state, 1, half)).as("node 1 did not").isTrue();
    }

    @Test
    void startsEmptyForAnotherClusterState() {
        memo.store(state, 0, Clusters.fraction(500), 1, 51, 500, 0);
        assertThat(memo.lookup(Clusters.uniform(3, 8), 0, Clusters.fraction(500)))
                .isFalse();
    }
}
