package io.quotient.core.model;

import java.util.List;
import java.util.Optional;

/**
 * A team's (or department's) guarantees and maxima per model group, in the order the teams file declares them (the
 * order an unpinned job tries the groups in). Empty: the owner's quota is "any model" (the flat teams file).
 *
 * <p>When any group guarantees GPUs ({@link #splitsGuarantee()}), the owner's whole guarantee is split by group: it is
 * the sum of the groups' guarantees, and GPUs of models outside every group are borrowed. Groups with only a maximum
 * cap a model and leave the guarantee "any model".
 */
public record ModelGuarantees(List<ModelGuarantee> groups) {

    public static final ModelGuarantees NONE = new ModelGuarantees(List.of());

    public ModelGuarantees {
        groups = List.copyOf(groups);
        for (int i = 0; i < groups.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (groups.get(i).group().overlaps(groups.get(j).group())) {
                    throw new IllegalArgumentException("guarantees[" + i + "].models ("
                            + groups.get(i).group().name()
                            + ") overlaps guarantees[" + j + "].models ("
                            + groups.get(j).group().name()
                            + "): a GPU model belongs to one group at most");
                }
            }
        }
    }

    public boolean isEmpty() {
        return groups.isEmpty();
    }

    /** Whether the guarantee is split by group (some group guarantees GPUs), not "any model". */
    public boolean splitsGuarantee() {
        // a loop, not a stream: quota checks ask this of a team for every job they decide
        for (ModelGuarantee g : groups) {
            if (g.guaranteedMilli() > 0) {
                return true;
            }
        }
        return false;
    }

    /** The sum of the groups' guarantees. */
    public long guaranteedMilli() {
        return groups.stream().mapToLong(ModelGuarantee::guaranteedMilli).sum();
    }

    /** The group that contains the model, if any. */
    public Optional<ModelGuarantee> forModel(String model) {
        return groups.stream().filter(g -> g.group().contains(model)).findFirst();
    }

    /** The group that shares a model with {@code group}, if any (groups are cluster-wide: then it is the same one). */
    public Optional<ModelGuarantee> overlapping(ModelGroup group) {
        return groups.stream().filter(g -> g.group().overlaps(group)).findFirst();
    }
}
