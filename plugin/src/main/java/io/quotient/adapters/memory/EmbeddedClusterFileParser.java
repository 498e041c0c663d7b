package io.quotient.adapters.memory;

import io.quotient.adapters.quota.ConfigFileException;
import io.quotient.adapters.quota.YamlConfigReader;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.request.LabelValue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Parses the embedded cluster's node list:
 * <pre>
 * nodes:
 *   - name: gpu-node        # with count &gt; 1: gpu-node-1 .. gpu-node-N
 *     count: 4
 *     gpus: 10
 *     gpuModel: A100-SXM4-80GB
 *     gpuMemoryMib: 81920
 *     cpuMilli: 128000
 *     memoryMib: 1048576
 * </pre>
 */
public final class EmbeddedClusterFileParser {

    /** More nodes than any cluster the embedded service stands in for; a larger count only exhausts the heap. */
    static final int MAX_NODES = 100_000;

    /** As many GPUs as a job may ask of one node through the API. */
    static final int MAX_GPUS_PER_NODE = 1024;

    private static final Set<String> FIELDS =
            Set.of("name", "count", "gpus", "gpuModel", "gpuMemoryMib", "cpuMilli", "memoryMib");

    private EmbeddedClusterFileParser() {}

    /** @throws ConfigFileException naming the line and the reason */
    public static List<NodeSpec> parse(String text, String source) {
        YamlConfigReader yaml = new YamlConfigReader(source);
        Node list = yaml.fields(yaml.root(text), Set.of("nodes")).get("nodes");
        if (list == null) {
            throw new ConfigFileException(source, 1, "missing the top-level 'nodes' list");
        }
        List<NodeSpec> nodes = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (MappingNode entry : yaml.sequenceOfMappings(list, "nodes")) {
            for (NodeSpec node : group(yaml, entry)) {
                if (!names.add(node.name())) {
                    throw yaml.error(entry, "node '" + node.name() + "' is defined twice");
                }
                nodes.add(node);
            }
        }
        if (nodes.isEmpty()) {
            throw new ConfigFileException(source, 1, "the embedded cluster needs at least one node");
        }
        return nodes;
    }

    private static List<NodeSpec> group(YamlConfigReader yaml, MappingNode entry) {
        Map<String, Node> f = yaml.fields(entry, FIELDS);
        for (String required : List.of("name", "gpus", "gpuModel", "gpuMemoryMib")) {
            if (!f.containsKey(required)) {
                throw yaml.error(entry, "each node entry needs '" + required + "'");
            }
        }
        String name = yaml.string(f.get("name"), "name");
        int count = f.containsKey("count") ? yaml.integer(f.get("count"), "count", 1, MAX_NODES) : 1;
        int gpus = yaml.integer(f.get("gpus"), "gpus", 0, MAX_GPUS_PER_NODE);
        String model = yaml.string(f.get("gpuModel"), "gpuModel");
        // the model stands for the node's nvidia.com/gpu.product label, which jobs' gpuModels and guarantees name
        if (!LabelValue.valid(model)) {
            throw yaml.error(
                    f.get("gpuModel"),
                    "gpuModel '" + model + "' is not a GPU model name (" + LabelValue.GPU_MODEL_RULE + ")");
        }
        long gpuMemory = yaml.integer(f.get("gpuMemoryMib"), "gpuMemoryMib", 1);
        long cpu = f.containsKey("cpuMilli") ? yaml.integer(f.get("cpuMilli"), "cpuMilli", 0) : 128_000;
        long memory = f.containsKey("memoryMib") ? yaml.integer(f.get("memoryMib"), "memoryMib", 0) : 1_048_576;
        List<NodeSpec> nodes = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            nodes.add(new NodeSpec(count == 1 ? name : name + "-" + i, cpu, memory, gpus, model, gpuMemory));
        }
        return nodes;
    }
}
