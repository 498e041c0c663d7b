package io.quotient.replay;

/**
 * How one model group of a team whose guarantee is split by GPU model fared: the time-to-guarantee measures of the
 * whole team, taken within the group (docs/replay.md, "modelGroups").
 *
 * @param group                  the group's name, its models joined by " or "
 * @param timeToGuaranteeSeconds the stretches the team held less of the group's models than its target there
 */
public record GroupGuarantee(
        String team,
        String group,
        long guaranteedMilli,
        Quantiles timeToGuaranteeSeconds,
        double guaranteeDeficitGpuHours) {}
