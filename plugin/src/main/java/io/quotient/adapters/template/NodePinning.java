package io.quotient.adapters.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pins a pod spec to the planned node with a required node affinity on {@code kubernetes.io/hostname}, so the
 * real kube-scheduler binds it exactly where Quotient's plan put it. The template's own required terms are
 * kept: the hostname expression is added to each of them (terms are ORed, expressions within a term ANDed).
 */
final class NodePinning {

    static final String HOSTNAME_LABEL = "kubernetes.io/hostname";

    private NodePinning() {
    }

    static void pin(Map<String, Object> podSpec, String node) {
        Map<String, Object> required = Trees.childMap(
                Trees.childMap(Trees.childMap(podSpec, "affinity"), "nodeAffinity"),
                "requiredDuringSchedulingIgnoredDuringExecution");
        List<Object> terms = Trees.childList(required, "nodeSelectorTerms");
        if (terms.isEmpty()) {
            terms.add(new LinkedHashMap<String, Object>());
        }
        for (Map<String, Object> term : Trees.maps(terms, "nodeSelectorTerms")) {
            Trees.childList(term, "matchExpressions").add(hostnameIn(node));
        }
    }

    private static Map<String, Object> hostnameIn(String node) {
        Map<String, Object> expression = new LinkedHashMap<>();
        expression.put("key", HOSTNAME_LABEL);
        expression.put("operator", "In");
        List<Object> values = new ArrayList<>();
        values.add(node);
        expression.put("values", values);
        return expression;
    }
}
