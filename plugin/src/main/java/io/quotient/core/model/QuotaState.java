package io.quotient.core.model;

/** Whether a job runs inside its team's guarantee (never preempted by other teams) or on borrowed capacity. */
public enum QuotaState {
    IN_QUOTA("InQuota"),
    OVER_QUOTA("OverQuota");

    private final String wireName;

    QuotaState(String wireName) {
        this.wireName = wireName;
    }

    /** The name used in the API, labels and the custom resource. */
    public String wireName() {
        return wireName;
    }

    public static QuotaState fromWireName(String name) {
        for (QuotaState s : values()) {
            if (s.wireName.equals(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown quota state '" + name + "', expected InQuota or OverQuota");
    }
}
