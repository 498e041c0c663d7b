package io.quotient.enforcer.core;

import java.util.List;

/** The outcome of planning one cycle: kills to make, usage to report, and budgets that could not be read. */
public record EnforcementPlan(List<KillDecision> kills, List<ContainerUsage> usage, List<String> problems) {

    public EnforcementPlan {
        kills = List.copyOf(kills);
        usage = List.copyOf(usage);
        problems = List.copyOf(problems);
    }
}
