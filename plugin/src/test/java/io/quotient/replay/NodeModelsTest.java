package io.quotient.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.cluster.NodeSpec;
import java.util.Collections;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** The generated nodes' models: whole nodes in the stated proportions, always the same for the same spec. */
class NodeModelsTest {

    private static final NodeModels FLEET = NodeModels.parse("H100-80GB:0.25,A100-SXM4-80GB:0.5,V100-32GB:0.25");

    @Test
    void wholeNodesByLargestRemaindersInTheOrderGiven() {
        List<String> models = FLEET.assign(41);
        assertThat(Collections.frequency(models, "H100-80GB")).isEqualTo(10);
        assertThat(Collections.frequency(models, "A100-SXM4-80GB"))
                .as("10.25, 20.5, 10.25: the .5 gets the node left")
                .isEqualTo(21);
        assertThat(Collections.frequency(models, "V100-32GB")).isEqualTo(10);
        assertThat(models.subList(0, 10)).containsOnly("H100-80GB");
        assertThat(models.subList(10, 31)).containsOnly("A100-SXM4-80GB");
        assertThat(FLEET.assign(52)).containsExactlyElementsOf(FLEET.assign(52));
        for (int n = 1; n <= 200; n++) {
            List<String> m = FLEET.assign(n);
            assertThat(m).hasSize(n);
            assertThat(Math.abs(Collections.frequency(m, "A100-SXM4-80GB") - n * 0.5))
                    .isLessThan(1.0);
            assertThat(Math.abs(Collections.frequency(m, "H100-80GB") - n * 0.25))
                    .isLessThan(1.0);
        }
    }

    @Test
    void equalRemaindersGoToTheModelGivenFirst() {
        assertThat(NodeModels.parse("b:0.5,a:0.5").assign(3)).containsExactly("b", "b", "a");
        assertThat(NodeModels.parse("a:0.5,b:0.5").assign(3)).containsExactly("a", "a", "b");
    }

    @Test
    void generatedNodesCarryTheModelAndTheMemoryItsNameGives() {
        List<NodeSpec> nodes = ClusterSize.uniform(4, 8, FLEET);
        assertThat(nodes)
                .extracting(NodeSpec::gpuModel)
                .containsExactly("H100-80GB", "A100-SXM4-80GB", "A100-SXM4-80GB", "V100-32GB");
        assertThat(nodes).extracting(NodeSpec::gpuMemoryMib).containsExactly(81920L, 81920L, 81920L, 32768L);
        assertThat(ClusterSize.uniform(2, 8)).extracting(NodeSpec::gpuModel).containsOnly(ClusterSize.MODEL);
        assertThat(ClusterSize.uniform(4, 8, FLEET)).isEqualTo(nodes);
    }

    @Test
    void sharesWrittenToThreePlacesAreScaledToSumToOne() {
        NodeModels thirds = NodeModels.parse("a:0.333,b:0.333,c:0.333");
        assertThat(thirds.shares())
                .extracting(NodeModels.Share::fraction)
                .allSatisfy(f -> assertThat(f).isCloseTo(1.0 / 3, Offset.offset(1e-12)));
        assertThat(thirds.assign(9)).containsExactly("a", "a", "a", "b", "b", "b", "c", "c", "c");
        assertThat(NodeModels.parse("a:0.3333,b:0.3333,c:0.3333").assign(3)).containsExactly("a", "b", "c");
        assertThatThrownBy(() -> NodeModels.parse("a:0.33,b:0.33,c:0.33")).hasMessageContaining("sum to 0.99");
    }

    @Test
    void badSpecsAreRefusedSayingWhatIsWrong() {
        assertThatThrownBy(() -> NodeModels.parse("H100-80GB:0.5,V100-32GB:0.4"))
                .hasMessageContaining("sum to 0.9");
        assertThatThrownBy(() -> NodeModels.parse("H100-80GB")).hasMessageContaining("is not MODEL:FRACTION");
        assertThatThrownBy(() -> NodeModels.parse("H100-80GB:0.5,H100-80GB:0.5"))
                .hasMessageContaining("named twice");
        assertThatThrownBy(() -> NodeModels.parse("H100-80GB:0,V100:1")).hasMessageContaining("above 0");
        assertThatThrownBy(() -> NodeModels.parse("H100-80GB:half")).hasMessageContaining("'half'");
        assertThatThrownBy(() -> NodeModels.parse(":1")).hasMessageContaining("not a GPU model name");
    }

    @Test
    void aModelNoNodeLabelCanCarryIsRefusedByName() {
        for (String bad : List.of("A100 SXM", "../x", "-H100", "H100-", "x".repeat(64), "")) {
            assertThatThrownBy(() -> NodeModels.parse(bad + ":1"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + bad + "' is not a GPU model name");
        }
        assertThat(NodeModels.parse("x".repeat(63) + ":1").assign(1)).containsExactly("x".repeat(63));
    }
}
