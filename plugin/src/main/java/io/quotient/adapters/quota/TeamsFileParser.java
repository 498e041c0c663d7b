package io.quotient.adapters.quota;

import io.quotient.core.model.Department;
import io.quotient.core.model.IdlePolicy;
import io.quotient.core.model.ModelGuarantees;
import io.quotient.core.model.Team;
import io.quotient.core.model.WithinTeamPreemption;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;

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
 *     preemptWithinTeam: LowerPriority   # optional, or Never: may a job preempt the team's lower-priority jobs
 *     fairShareReclaim: true  # optional: take part in reclaim toward the weighted fair share
 *     maxMinRuntimeSeconds: 600  # optional: lowers the cluster's maximum minRuntimeSeconds for the team's jobs
 *     guarantees:             # optional: guarantee and maxima per GPU model group (ModelGuaranteesParser);
 *       - models: [H100-80GB] #   guaranteedGpus may then be left out (it is the sum of the groups' gpus)
 *         gpus: 4
 *     idle: {kinds: [notebook], after: 30m, warnAfter: 20m, threshold: 5%}  # optional, IdlePolicyParser
 * departments:                # optional level above teams; teams borrow inside their department first
 *   - name: research
 *     guaranteedGpus: 16
 *     maxGpus: 24             # optional
 *     overQuotaWeight: 1      # optional
 *     teams:
 *       - name: team-c
 *         guaranteedGpus: 8
 * </pre>
 * A file may have {@code teams}, {@code departments} or both; a file with only {@code teams} means what it always did.
 * Every error names the line and the reason; nothing partial is ever returned.
 */
public final class TeamsFileParser {

    /** Team names become label values and URL segments: a DNS-1123 label. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    private static final Set<String> TEAM_FIELDS = Set.of(
            "name",
            "guaranteedGpus",
            "maxGpus",
            "overQuotaWeight",
            "priority",
            "preemptWithinTeam",
            "fairShareReclaim",
            "namespaces",
            "maxMinRuntimeSeconds",
            "guarantees",
            "idle");
    private static final Set<String> DEPARTMENT_FIELDS =
            Set.of("name", "guaranteedGpus", "maxGpus", "overQuotaWeight", "teams", "guarantees");

    private TeamsFileParser() {}

    /**
     * @param source the file name (or ConfigMap key) errors are reported against
     * @throws ConfigFileException naming the line and the reason
     */
    public static Map<String, Team> parse(String text, String source) {
        YamlConfigReader yaml = new YamlConfigReader(source);
        MappingNode root = yaml.root(text);
        Map<String, Node> top = yaml.fields(root, Set.of("teams", "departments"));
        if (top.isEmpty()) {
            throw new ConfigFileException(source, 1, "missing the top-level 'teams' list (or 'departments')");
        }
        Map<String, Team> teams = new LinkedHashMap<>();
        if (top.containsKey("teams")) {
            addTeams(yaml, top.get("teams"), null, teams);
        }
        if (top.containsKey("departments")) {
            Set<String> names = new HashSet<>();
            for (MappingNode entry : yaml.sequenceOfMappings(top.get("departments"), "departments")) {
                Map<String, Node> f = yaml.fields(entry, DEPARTMENT_FIELDS);
                Department d = department(yaml, entry, f);
                if (!names.add(d.name())) {
                    throw yaml.error(entry, "department '" + d.name() + "' is defined twice");
                }
                addTeams(yaml, f.get("teams"), d, teams);
            }
        }
        ModelGuaranteesParser.checkClusterWide(teams, source);
        return teams;
    }

    private static void addTeams(YamlConfigReader yaml, Node list, Department department, Map<String, Team> teams) {
        for (MappingNode entry : yaml.sequenceOfMappings(list, "teams")) {
            Team team = team(yaml, entry).withDepartment(department);
            if (teams.putIfAbsent(team.name(), team) != null) {
                throw yaml.error(
                        entry,
                        "team '" + team.name() + "' is defined twice (a team belongs to one" + " department at most)");
            }
        }
    }

    private static Department department(YamlConfigReader yaml, MappingNode entry, Map<String, Node> f) {
        if (!f.containsKey("name") || !hasGuarantee(f) || !f.containsKey("teams")) {
            throw yaml.error(
                    entry,
                    "each department needs 'name', 'guaranteedGpus' and 'teams'"
                            + " ('guarantees' per model group may stand for 'guaranteedGpus')");
        }
        String name = dnsLabel(yaml, f.get("name"), "department");
        Limits l = limits(yaml, f);
        try {
            return new Department(name, l.guaranteed(), l.max(), l.weight(), l.groups());
        } catch (IllegalArgumentException e) {
            throw yaml.error(entry, e.getMessage());
        }
    }

    /** What teams and departments both have, in milli-GPU. */
    private record Limits(long guaranteed, long max, double weight, ModelGuarantees groups) {}

    /** A guarantee split by model group may leave {@code guaranteedGpus} out: it is then the groups' sum. */
    private static boolean hasGuarantee(Map<String, Node> f) {
        return f.containsKey("guaranteedGpus") || f.containsKey("guarantees");
    }

    private static Limits limits(YamlConfigReader yaml, Map<String, Node> f) {
        ModelGuarantees groups = f.containsKey("guarantees")
                ? ModelGuaranteesParser.parse(yaml, f.get("guarantees"))
                : ModelGuarantees.NONE;
        long guaranteed = f.containsKey("guaranteedGpus")
                ? yaml.gpuMilli(f.get("guaranteedGpus"), "guaranteedGpus")
                : groups.guaranteedMilli();
        long max = f.containsKey("maxGpus") ? yaml.gpuMilli(f.get("maxGpus"), "maxGpus") : Team.UNLIMITED;
        double weight =
                f.containsKey("overQuotaWeight") ? yaml.number(f.get("overQuotaWeight"), "overQuotaWeight", 0) : 1.0;
        return new Limits(guaranteed, max, weight, groups);
    }

    private static String dnsLabel(YamlConfigReader yaml, Node node, String what) {
        String name = yaml.string(node, "name");
        if (!NAME.matcher(name).matches()) {
            throw yaml.error(
                    node,
                    what + " name '" + name + "' must be a DNS label: lower-case letters,"
                            + " digits and '-', at most 63 characters, starting and ending with a letter or digit");
        }
        return name;
    }

    private static Team team(YamlConfigReader yaml, MappingNode entry) {
        Map<String, Node> f = yaml.fields(entry, TEAM_FIELDS);
        if (!f.containsKey("name") || !hasGuarantee(f)) {
            throw yaml.error(
                    entry,
                    "each team needs 'name' and 'guaranteedGpus'"
                            + " ('guarantees' per model group may stand for 'guaranteedGpus')");
        }
        String name = dnsLabel(yaml, f.get("name"), "team");
        Limits l = limits(yaml, f);
        int priority = f.containsKey("priority")
                ? yaml.integer(f.get("priority"), "priority", Integer.MIN_VALUE, Integer.MAX_VALUE)
                : 0;
        WithinTeamPreemption within = WithinTeamPreemption.LOWER_PRIORITY;
        if (f.containsKey("preemptWithinTeam")) {
            try {
                within =
                        WithinTeamPreemption.fromWireName(yaml.string(f.get("preemptWithinTeam"), "preemptWithinTeam"));
            } catch (IllegalArgumentException e) {
                throw yaml.error(f.get("preemptWithinTeam"), e.getMessage());
            }
        }
        boolean fair = !f.containsKey("fairShareReclaim") || bool(yaml, f.get("fairShareReclaim"), "fairShareReclaim");
        Duration maxMinRuntime = f.containsKey("maxMinRuntimeSeconds")
                ? Duration.ofSeconds(yaml.integer(f.get("maxMinRuntimeSeconds"), "maxMinRuntimeSeconds", 0))
                : null;
        IdlePolicy idle = f.containsKey("idle") ? IdlePolicyParser.parse(yaml, f.get("idle")) : IdlePolicy.OFF;
        try {
            return new Team(
                    name,
                    l.guaranteed(),
                    l.max(),
                    l.weight(),
                    priority,
                    within,
                    fair,
                    null,
                    maxMinRuntime,
                    l.groups(),
                    idle);
        } catch (IllegalArgumentException e) {
            throw yaml.error(entry, e.getMessage());
        }
    }

    static boolean bool(YamlConfigReader yaml, Node node, String field) {
        String value = yaml.string(node, field);
        if (!value.equals("true") && !value.equals("false")) {
            throw yaml.error(node, field + " must be true or false, was '" + value + "'");
        }
        return Boolean.parseBoolean(value);
    }
}
