package io.quotient.adapters.quota;

import io.quotient.core.scheduling.Team;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Parses a teams file (also the content of the teams ConfigMap):
 * <pre>
 * teams:
 *   - name: team-a
 *     guaranteedGpus: 20      # GPU units, fractions allowed
 *     maxGpus: 30             # optional hard ceiling, default unlimited
 *     overQuotaWeight: 1      # optional share of idle capacity, default 1
 *     priority: 0             # optional, idle capacity goes to higher priorities first
 *     namespaces: [team-a]    # optional, default one named after the team (TeamNamespacesParser)
 * </pre>
 * Every error names the line and the reason; nothing partial is ever returned.
 */
public final class TeamsFileParser {

    /** Team names become label values and URL segments: a DNS-1123 label. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Set<String> TEAM_FIELDS = Set.of("name", "guaranteedGpus", "maxGpus", "overQuotaWeight",
            "priority", "namespaces");

    private TeamsFileParser() {
    }

    /**
     * @param source the file name (or ConfigMap key) errors are reported against
     * @throws ConfigFileException naming the line and the reason
     */
    public static Map<String, Team> parse(String text, String source) {
        YamlConfigReader yaml = new YamlConfigReader(source);
        MappingNode root = yaml.root(text);
        Node list = yaml.fields(root, Set.of("teams")).get("teams");
        if (list == null) {
            throw new ConfigFileException(source, 1, "missing the top-level 'teams' list");
        }
        Map<String, Team> teams = new LinkedHashMap<>();
        for (MappingNode entry : yaml.sequenceOfMappings(list, "teams")) {
            Team team = team(yaml, entry);
            if (teams.putIfAbsent(team.name(), team) != null) {
                throw yaml.error(entry, "team '" + team.name() + "' is defined twice");
            }
        }
        return teams;
    }

    private static Team team(YamlConfigReader yaml, MappingNode entry) {
        Map<String, Node> f = yaml.fields(entry, TEAM_FIELDS);
        if (!f.containsKey("name") || !f.containsKey("guaranteedGpus")) {
            throw yaml.error(entry, "each team needs 'name' and 'guaranteedGpus'");
        }
        String name = yaml.string(f.get("name"), "name");
        if (!NAME.matcher(name).matches()) {
            throw yaml.error(f.get("name"), "team name '" + name + "' must be a DNS label: lower-case letters,"
                    + " digits and '-', at most 63 characters, starting and ending with a letter or digit");
        }
        long guaranteed = milli(yaml, f.get("guaranteedGpus"), "guaranteedGpus");
        long max = f.containsKey("maxGpus") ? milli(yaml, f.get("maxGpus"), "maxGpus") : Team.UNLIMITED;
        double weight = f.containsKey("overQuotaWeight")
                ? yaml.number(f.get("overQuotaWeight"), "overQuotaWeight", 0) : 1.0;
        int priority = f.containsKey("priority")
                ? (int) yaml.integer(f.get("priority"), "priority", Integer.MIN_VALUE) : 0;
        try {
            return new Team(name, guaranteed, max, weight, priority);
        } catch (IllegalArgumentException e) {
            throw yaml.error(entry, e.getMessage());
        }
    }

    private static long milli(YamlConfigReader yaml, Node node, String field) {
        return Math.round(yaml.number(node, field, 0) * 1000);
    }
}
