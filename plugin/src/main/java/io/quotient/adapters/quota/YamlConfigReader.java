package io.quotient.adapters.quota;

import java.io.StringReader;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Reads small configuration files (teams, embedded cluster) as a YAML node tree so that every error names the
 * line it is about. Typed accessors reject unknown keys and wrong types with a reason a person can act on.
 */
public final class YamlConfigReader {

    /** The most GPUs one amount of the file may name: more than any cluster has. */
    public static final long MAX_GPUS = 1_000_000;

    private final String source;

    public YamlConfigReader(String source) {
        this.source = source;
    }

    /** The document's top-level mapping. */
    public MappingNode root(String text) {
        Node node;
        try {
            node = new Yaml(new SafeConstructor(new LoaderOptions())).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            throw new ConfigFileException(
                    source, mark == null ? 0 : mark.getLine() + 1, "not valid YAML: " + e.getProblem());
        } catch (YAMLException e) {
            throw new ConfigFileException(source, 0, "not valid YAML: " + e.getMessage());
        }
        if (node == null) {
            throw new ConfigFileException(source, 1, "the file is empty");
        }
        return mapping(node, "the document");
    }

    /** The entries of a mapping by key; fails on keys outside {@code allowed} (typos would be silently ignored). */
    public Map<String, Node> fields(MappingNode map, Set<String> allowed) {
        Map<String, Node> fields = new LinkedHashMap<>();
        for (NodeTuple tuple : map.getValue()) {
            String key = scalar(tuple.getKeyNode(), "a key");
            if (!allowed.contains(key)) {
                throw error(
                        tuple.getKeyNode(),
                        "unknown field '" + key + "'; allowed: "
                                + String.join(", ", allowed.stream().sorted().toList()));
            }
            if (fields.put(key, tuple.getValueNode()) != null) {
                throw error(tuple.getKeyNode(), "field '" + key + "' appears twice");
            }
        }
        return fields;
    }

    public List<MappingNode> sequenceOfMappings(Node node, String what) {
        if (!(node instanceof SequenceNode seq)) {
            throw error(node, what + " must be a list");
        }
        return seq.getValue().stream()
                .map(n -> mapping(n, "each entry of " + what))
                .toList();
    }

    public MappingNode mapping(Node node, String what) {
        if (!(node instanceof MappingNode map)) {
            throw error(node, what + " must be a mapping of fields");
        }
        return map;
    }

    public String string(Node node, String field) {
        String value = scalar(node, field);
        if (value.isBlank()) {
            throw error(node, field + " must not be empty");
        }
        return value;
    }

    public double number(Node node, String field, double min) {
        double value = parsed(node, field, Double::parseDouble, "a number");
        if (!(value >= min) || Double.isInfinite(value)) {
            throw error(node, field + " must be a finite number >= " + min + ", was " + scalar(node, field));
        }
        return value;
    }

    /**
     * GPUs as the file writes them (fractions allowed), in milli-GPU. Bounded so that the sums over teams, departments
     * and groups stay far from overflow ({@code 1e300} was Long.MAX_VALUE milli-GPU, two of them a negative
     * guarantee), and a positive amount that rounds to no milli-GPU is refused rather than silently made 0.
     */
    public long gpuMilli(Node node, String field) {
        double gpus = number(node, field, 0);
        if (gpus > MAX_GPUS) {
            throw error(
                    node,
                    field + " must be at most " + MAX_GPUS + " GPUs (more than any cluster has), was "
                            + scalar(node, field));
        }
        long milli = Math.round(gpus * 1000);
        if (gpus > 0 && milli == 0) {
            throw error(node, field + " is below the smallest share, 0.001 GPU, was " + scalar(node, field));
        }
        return milli;
    }

    public long integer(Node node, String field, long min) {
        long value = parsed(node, field, Long::parseLong, "a whole number");
        if (value < min) {
            throw error(node, field + " must be >= " + min + ", was " + value);
        }
        return value;
    }

    /**
     * A whole number from {@code min} to {@code max}, for a field kept as an {@code int}: a larger value is refused
     * naming the range, never cut to its low 32 bits (a priority of 99999999999 was read as 1215752191).
     */
    public int integer(Node node, String field, int min, int max) {
        long value = integer(node, field, min);
        if (value > max) {
            throw error(node, field + " must be from " + min + " to " + max + ", was " + value);
        }
        return (int) value;
    }

    private <T> T parsed(Node node, String field, Function<String, T> parser, String kind) {
        String text = scalar(node, field);
        try {
            return parser.apply(text);
        } catch (NumberFormatException e) {
            throw error(node, field + " must be " + kind + ", was '" + text + "'");
        }
    }

    public ConfigFileException error(Node node, String reason) {
        return new ConfigFileException(source, node.getStartMark().getLine() + 1, reason);
    }

    private String scalar(Node node, String what) {
        if (!(node instanceof ScalarNode scalar)) {
            throw error(node, what + " must be a single value");
        }
        return scalar.getValue();
    }
}
