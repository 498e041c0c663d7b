package io.quotient.adapters.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Pins a pod spec to the planned node with a required node affinity on {@code kubernetes.io/hostname}, so the
 * real kube-scheduler binds it exactly where Quotient's plan put it. The template's own required terms are
 * kept: the hostname expression is added to each of them (terms are ORed, expressions within a term ANDed).
 *
 * <p>A gang's pods are pinned to the set of its nodes plus a required anti-affinity to each other on the hostname:
 * the planned nodes each have room for exactly one replica more, so the kube-scheduler binds one replica per chosen
 * node (whichever replica lands where, a replica is a replica).
 */
public final class NodePinning {

    public static final String HOSTNAME_LABEL = "kubernetes.io/hostname";

    private NodePinning() {}

    static void pin(Map<String, Object> podSpec, String node) {
        pin(podSpec, List.of(node));
    }

    public static void pin(Map<String, Object> podSpec, List<String> nodes) {
        Map<String, Object> required = Trees.childMap(
                Trees.childMap(Trees.childMap(podSpec, "affinity"), "nodeAffinity"),
                "requiredDuringSchedulingIgnoredDuringExecution");
        List<Object> terms = Trees.childList(required, "nodeSelectorTerms");
        if (terms.isEmpty()) {
            terms.add(new LinkedHashMap<String, Object>());
        }
        for (Map<String, Object> term : Trees.maps(terms, "nodeSelectorTerms")) {
            Trees.childList(term, "matchExpressions").add(hostnameIn(nodes));
        }
    }

    /** No two pods with these labels on one node (required, so never two replicas of a gang share a node). */
    public static void onePerNode(Map<String, Object> podSpec, Map<String, String> labels) {
        Map<String, Object> antiAffinity = Trees.childMap(Trees.childMap(podSpec, "affinity"), "podAntiAffinity");
        Map<String, Object> term = new LinkedHashMap<>();
        Map<String, Object> selector = new LinkedHashMap<>();
        selector.put("matchLabels", new LinkedHashMap<String, Object>(new TreeMap<>(labels)));
        term.put("labelSelector", selector);
        term.put("topologyKey", HOSTNAME_LABEL);
        Trees.childList(antiAffinity, "requiredDuringSchedulingIgnoredDuringExecution")
                .add(term);
    }

    /**
     * Takes back what {@link #pin} and {@link #onePerNode} added (hostname {@code In} expressions; anti-affinity terms
     * selecting {@code jobLabel}), dropping what is left empty: a workload Quotient placed but did not create goes
     * back to its author's own affinity when it is suspended again.
     */
    public static void unpin(Map<String, Object> podSpec, String jobLabel) {
        Map<String, Object> affinity = Trees.childMap(podSpec, "affinity");
        Map<String, Object> nodeAffinity = Trees.childMap(affinity, "nodeAffinity");
        Map<String, Object> required = Trees.childMap(nodeAffinity, "requiredDuringSchedulingIgnoredDuringExecution");
        List<Object> terms = Trees.childList(required, "nodeSelectorTerms");
        for (Map<String, Object> term : Trees.maps(terms, "nodeSelectorTerms")) {
            Trees.childList(term, "matchExpressions")
                    .removeIf(e -> e instanceof Map<?, ?> m
                            && HOSTNAME_LABEL.equals(m.get("key"))
                            && "In".equals(m.get("operator")));
            removeIfEmpty(term, "matchExpressions");
        }
        terms.removeIf(t -> t instanceof Map<?, ?> m && m.isEmpty());
        removeIfEmpty(required, "nodeSelectorTerms");
        removeIfEmpty(nodeAffinity, "requiredDuringSchedulingIgnoredDuringExecution");
        removeIfEmpty(affinity, "nodeAffinity");
        Map<String, Object> antiAffinity = Trees.childMap(affinity, "podAntiAffinity");
        Trees.childList(antiAffinity, "requiredDuringSchedulingIgnoredDuringExecution")
                .removeIf(t -> t instanceof Map<?, ?> m
                        && m.get("labelSelector") instanceof Map<?, ?> selector
                        && selector.get("matchLabels") instanceof Map<?, ?> labels
                        && labels.containsKey(jobLabel));
        removeIfEmpty(antiAffinity, "requiredDuringSchedulingIgnoredDuringExecution");
        removeIfEmpty(affinity, "podAntiAffinity");
        removeIfEmpty(podSpec, "affinity");
    }

    private static void removeIfEmpty(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        if (value instanceof Map<?, ?> m && m.isEmpty() || value instanceof List<?> l && l.isEmpty()) {
            parent.remove(key);
        }
    }

    private static Map<String, Object> hostnameIn(List<String> nodes) {
        Map<String, Object> expression = new LinkedHashMap<>();
        expression.put("key", HOSTNAME_LABEL);
        expression.put("operator", "In");
        expression.put("values", new ArrayList<Object>(nodes));
        return expression;
    }
}
