package io.quotient.core.scheduling;

import io.quotient.core.model.Department;
import io.quotient.core.model.ModelGroup;
import io.quotient.core.model.Team;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The books every view of a {@link QuotaLedger} shares: what each team, its non-preemptible jobs and each department
 * hold in GPU milli, overall and per GPU model, and which owners split their guarantee by model group (worked out
 * once: every total asks it). Only the sums are kept here; which view reads which sum is the ledger's business.
 */
final class LedgerBooks {

    /** Whose holding a per-model sum is. */
    enum Owner {
        TEAM,
        NON_PREEMPTIBLE,
        DEPARTMENT
    }

    /** What one owner holds on one model: a record, not a joined string, since every booking builds three. */
    private record ModelKey(Owner kind, String owner, String model) {}

    private final Map<String, String> nodeModels;
    /** A running sum, changed in place by every booking of its owner: a lookup may keep it and read it later. */
    private static final class Sum {
        private long milli;
    }

    /** Per kind, each owner's running sum (a lookup of the same owner as the last finds its sum at once). */
    private final Map<Owner, NamedLookup<Sum>> totals = new EnumMap<>(Owner.class);

    private final Map<ModelKey, Long> byModel = new HashMap<>();
    private final Set<String> splitTeams = new HashSet<>();
    private final Set<String> splitDepartments = new HashSet<>();

    /** @param nodeModels per node name, its GPU model: which group a job counts against */
    LedgerBooks(Map<String, Team> teams, Map<String, String> nodeModels) {
        this.nodeModels = Map.copyOf(nodeModels);
        for (Owner kind : Owner.values()) {
            totals.put(kind, NamedLookup.empty());
        }
        teams.forEach((name, t) -> {
            if (t.splitsGuarantee()) {
                splitTeams.add(name);
            }
            Department d = t.department();
            if (d != null && d.modelGuarantees().splitsGuarantee()) {
                splitDepartments.add(d.name());
            }
        });
    }

    /** Books {@code milli} (negative: frees it) for a job of {@code team} on a node of {@code model}. */
    void change(String team, Department department, String model, boolean preemptible, long milli) {
        add(Owner.TEAM, team, model, milli);
        if (!preemptible) {
            add(Owner.NON_PREEMPTIBLE, team, model, milli);
        }
        if (department != null) {
            add(Owner.DEPARTMENT, department.name(), model, milli);
        }
    }

    private void add(Owner kind, String owner, String model, long milli) {
        totals.get(kind).getOrCreate(owner, o -> new Sum()).milli += milli;
        byModel.merge(new ModelKey(kind, owner, model), milli, Long::sum);
    }

    /** What the owner holds on every model. */
    long total(Owner kind, String owner) {
        Sum sum = totals.get(kind).get(owner);
        return sum == null ? 0 : sum.milli;
    }

    /** What the owner holds on nodes of the group's models. */
    long heldIn(Owner kind, String owner, ModelGroup g) {
        long sum = 0;
        for (String model : g.models()) {
            sum += byModel.getOrDefault(new ModelKey(kind, owner, model), 0L);
        }
        return sum;
    }

    /** Whether the owner's guarantee is split by model group (a non-preemptible sum follows its team's). */
    boolean splits(Owner kind, String owner) {
        return kind == Owner.DEPARTMENT ? splitDepartments.contains(owner) : splitTeams.contains(owner);
    }

    /** The GPU model of the node; "" when the node is unknown. */
    String modelOfNode(String node) {
        return nodeModels.getOrDefault(node, "");
    }
}
