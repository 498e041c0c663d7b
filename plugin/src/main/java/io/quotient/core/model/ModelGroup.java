package io.quotient.core.model;

import java.util.Set;
import java.util.TreeSet;

/**
 * GPU models that quotas treat as one kind of GPU (a Kueue ResourceFlavor, a Run:ai node pool): a job on a node of
 * any of these models counts against the group. Groups are cluster-wide: two teams that name groups name the same
 * group or disjoint ones (the teams file refuses anything else), so that "what team b holds of team a's H100 group"
 * is defined.
 *
 * @param models the node GPU models (the {@code nvidia.com/gpu.product} values), at least one
 */
public record ModelGroup(Set<String> models) {

    public ModelGroup {
        if (models == null || models.isEmpty()) {
            throw new IllegalArgumentException("models must name at least one GPU model");
        }
        if (models.stream().anyMatch(m -> m == null || m.isBlank())) {
            throw new IllegalArgumentException("models must not contain an empty name");
        }
        models = Set.copyOf(models);
    }

    public static ModelGroup of(String... models) {
        return new ModelGroup(Set.of(models));
    }

    public boolean contains(String model) {
        return models.contains(model);
    }

    public boolean overlaps(ModelGroup other) {
        return other.models.stream().anyMatch(models::contains);
    }

    /** The group as reasons and views name it: its models, sorted, joined by " or ". */
    public String name() {
        return String.join(" or ", new TreeSet<>(models));
    }
}
