package io.quotient.enforcer.core;

/**
 * Names one pod for the usage report: the service joins on the UID, or on {@code team} and {@code job}
 * (the pod's {@code quotient.io/team} and {@code quotient.io/job} labels, empty when it has none,
 * as pods Quotient did not create), and people read the name.
 */
public record PodRef(String namespace, String name, String uid, String team, String job) {

    public static final String TEAM_LABEL = "quotient.io/team";
    public static final String JOB_LABEL = "quotient.io/job";

    public PodRef(String namespace, String name, String uid) {
        this(namespace, name, uid, "", "");
    }

    public static PodRef of(PodInfo pod) {
        return new PodRef(
                pod.namespace(),
                pod.name(),
                pod.uid(),
                pod.labels().getOrDefault(TEAM_LABEL, ""),
                pod.labels().getOrDefault(JOB_LABEL, ""));
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
