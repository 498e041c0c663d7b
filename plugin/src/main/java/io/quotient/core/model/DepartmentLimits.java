package io.quotient.core.model;

import java.util.Map;

/**
 * What a reclaim may take across departments: per department other than the claimant's, the milli its teams may
 * lose together (down to its guarantee, or fair share when reclaiming for fairness); the milli the claimant's own
 * department must free inside itself (the claimant team's jobs included) before the plan may take from any other
 * department at all, so that a department above its own level with the job borrows inside first and ends at that level;
 * and the milli it must free inside itself in any case, so that with the job it stays within its {@code maxGpus}.
 *
 * @param allowance             per department, the milli its teams may lose together; a department absent loses nothing
 * @param ownDepartmentMustFree milli the claimant's department must free inside itself before it takes from others
 * @param ownDepartmentOverMax  milli the claimant's department must free inside itself whatever else the plan takes:
 *                              what the job would bring it beyond its maximum (0 when it stays within)
 */
public record DepartmentLimits(Map<String, Long> allowance, long ownDepartmentMustFree, long ownDepartmentOverMax) {

    /** No department may lose anything, and nothing need be freed: teams without departments, or rules within a team. */
    public static final DepartmentLimits NONE = new DepartmentLimits(Map.of(), 0, 0);

    public DepartmentLimits {
        allowance = Map.copyOf(allowance);
    }

    /** The same limits with no other department to take from (for searches that cannot check what was freed inside). */
    public DepartmentLimits insideOnly() {
        return ownDepartmentMustFree == 0 && ownDepartmentOverMax == 0 ? this : NONE;
    }
}
