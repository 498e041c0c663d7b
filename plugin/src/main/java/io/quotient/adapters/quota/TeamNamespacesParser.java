package io.quotient.adapters.quota;

import io.quotient.core.tenancy.TeamNamespaces;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Reads the {@code namespaces: [...]} of each team of a teams file (the quotas are {@link TeamsFileParser}'s; a
 * file is given to both). Errors name the line: a namespace that is not a DNS label, an empty list, or one
 * namespace given to two teams.
 */
public final class TeamNamespacesParser {

    private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    private TeamNamespacesParser() {}

    /**
     * @param serviceNamespace the service's own namespace, which teams may share (see {@link TeamNamespaces}); null
     *                         when there is none (embedded cluster)
     * @throws ConfigFileException naming the line and the reason
     */
    public static TeamNamespaces parse(String text, String source, String serviceNamespace) {
        YamlConfigReader yaml = new YamlConfigReader(source);
        Map<String, List<String>> byTeam = new LinkedHashMap<>();
        Map<String, String> owners = new LinkedHashMap<>();
        for (MappingNode entry : teamEntries(yaml, text, source)) {
            String team = null;
            Node namespaces = null;
            for (NodeTuple field : entry.getValue()) {
                String key = field.getKeyNode() instanceof ScalarNode s ? s.getValue() : "";
                if (key.equals("name")) {
                    team = yaml.string(field.getValueNode(), "name");
                } else if (key.equals("namespaces")) {
                    namespaces = field.getValueNode();
                }
            }
            if (team == null) {
                throw yaml.error(entry, "each team needs 'name'");
            }
            byTeam.put(team, namespaces == null ? null : namespaces(yaml, team, namespaces, owners, serviceNamespace));
            if (namespaces == null) {
                claim(yaml, entry, team, team, owners, serviceNamespace);
            }
        }
        try {
            return TeamNamespaces.of(byTeam, serviceNamespace);
        } catch (IllegalArgumentException e) {
            throw new ConfigFileException(source, 0, e.getMessage()); // the checks above name lines first
        }
    }

    /** Every team entry of the file: the top-level {@code teams} and those of each department. */
    private static List<MappingNode> teamEntries(YamlConfigReader yaml, String text, String source) {
        Map<String, Node> top = yaml.fields(yaml.root(text), Set.of("teams", "departments"));
        if (top.isEmpty()) {
            throw new ConfigFileException(source, 1, "missing the top-level 'teams' list (or 'departments')");
        }
        List<MappingNode> entries = new ArrayList<>();
        if (top.containsKey("teams")) {
            entries.addAll(yaml.sequenceOfMappings(top.get("teams"), "teams"));
        }
        if (top.containsKey("departments")) {
            for (MappingNode department : yaml.sequenceOfMappings(top.get("departments"), "departments")) {
                for (NodeTuple field : department.getValue()) {
                    if (field.getKeyNode() instanceof ScalarNode key
                            && key.getValue().equals("teams")) {
                        entries.addAll(yaml.sequenceOfMappings(field.getValueNode(), "teams"));
                    }
                }
            }
        }
        return entries;
    }

    private static List<String> namespaces(
            YamlConfigReader yaml, String team, Node node, Map<String, String> owners, String serviceNamespace) {
        if (!(node instanceof SequenceNode sequence) || sequence.getValue().isEmpty()) {
            throw yaml.error(
                    node,
                    "namespaces of team " + team + " must be a non-empty list of namespace names;"
                            + " leave it out for the default (one namespace named " + team + ")");
        }
        List<String> names = new ArrayList<>();
        for (Node item : sequence.getValue()) {
            String namespace = yaml.string(item, "namespaces");
            if (!NAMESPACE.matcher(namespace).matches()) {
                throw yaml.error(
                        item,
                        "namespace '" + namespace + "' of team " + team + " is not a valid namespace"
                                + " name (a DNS label: lower-case letters, digits and '-', at most 63 characters)");
            }
            claim(yaml, item, namespace, team, owners, serviceNamespace);
            names.add(namespace);
        }
        return names;
    }

    private static void claim(
            YamlConfigReader yaml,
            Node where,
            String namespace,
            String team,
            Map<String, String> owners,
            String serviceNamespace) {
        if (namespace.equals(serviceNamespace)) {
            return; // shared by design
        }
        String owner = owners.putIfAbsent(namespace, team);
        if (owner != null) {
            throw yaml.error(
                    where,
                    "namespace " + namespace + " of team " + team + " already belongs to team " + owner
                            + (owner.equals(team) ? " (listed twice)" : "")
                            + "; a namespace belongs to at most one team");
        }
    }
}
