package io.quotient.adapters.k8s.adoption;

/** Names Quotient writes on workloads it adopts, and the opt-in label of namespaces whose workloads it governs. */
public final class AdoptionLabels {

    /** On a workload the webhook suspended because it asks for GPUs: Quotient records, places and unsuspends it. */
    public static final String ADOPTED = "quotient.io/adopted";

    /**
     * On a namespace: its workloads are sent to the webhook (the webhook's namespaceSelector). 1.20 has no automatic
     * {@code kubernetes.io/metadata.name} label, so an opt-in label is the only way to keep kube-system and
     * quotient-system out on every version: they never carry it.
     */
    public static final String NAMESPACE_OPT_IN = "quotient.io/admission";

    public static final String NAMESPACE_OPT_IN_VALUE = "enabled";

    private AdoptionLabels() {}
}
