package io.quotient.core.model;

/** Whether a team's waiting job may preempt the team's own running jobs (as Kueue's {@code withinClusterQueue}). */
public enum WithinTeamPreemption {
    /** The team's jobs never preempt each other. */
    NEVER("Never"),
    /** A job may preempt the team's own preemptible jobs of lower priority (past their minimum runtime). */
    LOWER_PRIORITY("LowerPriority");

    private final String wireName;

    WithinTeamPreemption(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** @throws IllegalArgumentException naming the accepted values */
    public static WithinTeamPreemption fromWireName(String name) {
        for (WithinTeamPreemption p : values()) {
            if (p.wireName.equals(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("preemptWithinTeam '" + name + "' is not known; use Never or LowerPriority");
    }
}
