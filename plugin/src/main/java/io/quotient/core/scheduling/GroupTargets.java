package io.quotient.core.scheduling;

import io.quotient.core.model.Department;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.ModelGroup;
import io.quotient.core.model.ModelGuarantee;
import io.quotient.core.model.ModelGuarantees;
import io.quotient.core.model.Team;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToLongFunction;

/**
 * Where a job of a team with GPU model groups may go, as quotas see it: the models its team's and department's
 * per-group maxima still allow ({@link #allowed}), and, when the team's guarantee is split by group, the groups in
 * the team's declared order that share a model with the job, each with the job restricted to the models of the group
 * it may use (the fungibility rule: an unpinned job tries every group, a pinned job the groups its pin meets).
 *
 * @param allowed  the job restricted to the models the maxima allow (the job itself when no maximum applies)
 * @param targets  the groups the job may count against, in the team's order
 * @param capped   why the maxima leave the job no model, or null
 */
record GroupTargets(JobSpec allowed, List<Target> targets, String capped) {

    /** One group the job may count against, and the job restricted to that group's models it may use. */
    record Target(ModelGuarantee guarantee, JobSpec job) {
        ModelGroup group() {
            return guarantee.group();
        }
    }

    /** Whether the team's quota names model groups at all (its own or its department's). */
    static boolean applies(Team team) {
        Department d = team.department();
        return !team.modelGuarantees().isEmpty()
                || (d != null && !d.modelGuarantees().isEmpty());
    }

    /**
     * @param ledger        the whole ledger
     * @param clusterModels the GPU models of the cluster's nodes
     * @param least         the GPU milli the job takes at least
     */
    static GroupTargets of(JobSpec job, QuotaLedger ledger, Set<String> clusterModels, long least) {
        Team team = ledger.team(job.team());
        Set<String> usable = job.allowedModels().isEmpty() ? clusterModels : job.allowedModels();
        Set<String> open = new LinkedHashSet<>();
        List<String> full = new ArrayList<>();
        for (String model : new TreeSet<>(usable)) {
            String at = atMax(team, ledger, model, least);
            if (at == null) {
                open.add(model);
            } else if (!full.contains(at)) {
                full.add(at);
            }
        }
        if (open.isEmpty() && !usable.isEmpty()) {
            return new GroupTargets(job, List.of(), String.join("; ", full));
        }
        JobSpec allowed = full.isEmpty() ? job : job.withAllowedModels(open);
        List<Target> targets = new ArrayList<>();
        if (team.splitsGuarantee()) {
            for (ModelGuarantee g : team.modelGuarantees().groups()) {
                Set<String> models = new LinkedHashSet<>(g.group().models());
                models.retainAll(open.isEmpty() ? g.group().models() : open);
                if (!models.isEmpty()) {
                    targets.add(new Target(g, job.withAllowedModels(models)));
                }
            }
        }
        return new GroupTargets(allowed, targets, null);
    }

    /** Why {@code least} more on nodes of the model would take the team or its department beyond a group maximum. */
    private static String atMax(Team team, QuotaLedger ledger, String model, long least) {
        String own =
                beyond("team " + team.name(), team.modelGuarantees(), model, g -> ledger.heldIn(team.name(), g), least);
        Department d = team.department();
        return own != null || d == null
                ? own
                : beyond(
                        "department " + d.name(),
                        d.modelGuarantees(),
                        model,
                        g -> ledger.departmentHeldIn(d.name(), g),
                        least);
    }

    /** "team t at its maximum for H100-80GB (2 of 2 GPUs)" when {@code least} more would pass it, else null. */
    private static String beyond(
            String owner, ModelGuarantees groups, String model, ToLongFunction<ModelGroup> held, long least) {
        Optional<ModelGuarantee> g = groups.forModel(model).filter(ModelGuarantee::hasMax);
        if (g.isEmpty() || held.applyAsLong(g.get().group()) + least <= g.get().maxMilli()) {
            return null;
        }
        return owner + " at its maximum for " + g.get().group().name() + " ("
                + WaitReasons.gpus(held.applyAsLong(g.get().group())) + " of "
                + WaitReasons.gpus(g.get().maxMilli())
                + " GPUs)";
    }

    /** Why the group has no room for the job in the team's guarantee: "H100-80GB: group guarantee 4, holds 4". */
    static String noRoom(Target t, long held) {
        return t.group().name() + ": group guarantee "
                + WaitReasons.gpus(t.guarantee().guaranteedMilli()) + ", holds " + WaitReasons.gpus(held);
    }
}
