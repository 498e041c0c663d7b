package io.quotient.adapters.quota;

import io.quotient.core.model.Department;
import io.quotient.core.model.ModelGroup;
import io.quotient.core.model.ModelGuarantee;
import io.quotient.core.model.ModelGuarantees;
import io.quotient.core.model.Team;
import io.quotient.core.request.LabelValue;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Reads a team's or department's {@code guarantees} list:
 * <pre>
 *     guarantees:
 *       - models: [H100-80GB]
 *         gpus: 4              # optional, default 0 (the owner only borrows these models, up to maxGpus)
 *         maxGpus: 6           # optional ceiling on these models, default none
 *       - models: [A100-SXM4-80GB, A100-SXM4-40GB]
 *         gpus: 8
 * </pre>
 * and checks that the groups of the whole file are cluster-wide: two owners name the same group or disjoint ones.
 */
final class ModelGuaranteesParser {

    private static final Set<String> FIELDS = Set.of("models", "gpus", "maxGpus");

    private ModelGuaranteesParser() {}

    static ModelGuarantees parse(YamlConfigReader yaml, Node list) {
        List<ModelGuarantee> groups = new ArrayList<>();
        List<MappingNode> entries = yaml.sequenceOfMappings(list, "guarantees");
        for (int i = 0; i < entries.size(); i++) {
            String field = "guarantees[" + i + "]";
            Map<String, Node> f = yaml.fields(entries.get(i), FIELDS);
            if (!f.containsKey("models")) {
                throw yaml.error(entries.get(i), field + " needs 'models', a list of GPU models");
            }
            ModelGroup group = new ModelGroup(models(yaml, f.get("models"), field + ".models"));
            long gpus = f.containsKey("gpus") ? yaml.gpuMilli(f.get("gpus"), field + ".gpus") : 0;
            long max = f.containsKey("maxGpus") ? yaml.gpuMilli(f.get("maxGpus"), field + ".maxGpus") : Team.UNLIMITED;
            try {
                groups.add(new ModelGuarantee(group, gpus, max));
            } catch (IllegalArgumentException e) {
                throw yaml.error(entries.get(i), field + ": " + e.getMessage());
            }
        }
        try {
            return new ModelGuarantees(groups);
        } catch (IllegalArgumentException e) {
            throw yaml.error(list, e.getMessage());
        }
    }

    /**
     * Refuses groups that partly overlap across owners ({@code [H100]} for one team, {@code [H100, A100]} for
     * another): what one team holds of another's group would be undefined.
     */
    static void checkClusterWide(Map<String, Team> teams, String source) {
        List<Owned> all = new ArrayList<>();
        Set<String> departments = new LinkedHashSet<>();
        for (Team t : teams.values()) {
            t.modelGuarantees().groups().forEach(g -> all.add(new Owned("team " + t.name(), g.group())));
            Department d = t.department();
            if (d != null && departments.add(d.name())) {
                d.modelGuarantees().groups().forEach(g -> all.add(new Owned("department " + d.name(), g.group())));
            }
        }
        for (int i = 0; i < all.size(); i++) {
            for (int j = 0; j < i; j++) {
                Owned a = all.get(i);
                Owned b = all.get(j);
                if (a.group().overlaps(b.group()) && !a.group().equals(b.group())) {
                    throw new ConfigFileException(
                            source,
                            1,
                            a.owner() + ": guarantees models [" + a.group().name() + "] partly overlap " + b.owner()
                                    + "'s [" + b.group().name() + "]; model groups are cluster-wide: name the same"
                                    + " models or disjoint ones");
                }
            }
        }
    }

    private record Owned(String owner, ModelGroup group) {}

    private static Set<String> models(YamlConfigReader yaml, Node node, String field) {
        if (!(node instanceof SequenceNode sequence) || sequence.getValue().isEmpty()) {
            throw yaml.error(node, field + " must be a non-empty list of GPU models");
        }
        Set<String> models = new LinkedHashSet<>();
        for (Node m : sequence.getValue()) {
            String model = yaml.string(m, field);
            // a group's models are nodes' nvidia.com/gpu.product labels, as a job's gpuModels are: a name no label
            // can hold would guarantee GPUs no node ever has
            if (!LabelValue.valid(model)) {
                throw yaml.error(
                        m,
                        field + " names '" + model + "', which is not a GPU model name (" + LabelValue.GPU_MODEL_RULE
                                + ")");
            }
            if (!models.add(model)) {
                throw yaml.error(m, field + " names '" + model + "' twice");
            }
        }
        return models;
    }
}
