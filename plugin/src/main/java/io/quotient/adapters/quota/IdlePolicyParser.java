package io.quotient.adapters.quota;

import io.quotient.core.model.IdleAction;
import io.quotient.core.model.IdlePolicy;
import io.quotient.core.model.JobKind;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * A team's {@code idle} key in the teams file:
 * <pre>
 *     idle: {kinds: [notebook], after: 30m, warnAfter: 20m, threshold: 5%, onlyWhenOthersWait: true, action: preempt}
 * </pre>
 * Every field is optional (defaults: kinds [notebook], after 30m, warnAfter two thirds of after, threshold 5%,
 * onlyWhenOthersWait true, action preempt); a team without the key has no idle policy. Durations are a whole number
 * with {@code s}, {@code m} or {@code h}; the threshold is per cent ({@code 5%} or {@code 5}). Each error names the
 * field ({@code idle.after}) and the line.
 */
final class IdlePolicyParser {

    static final Set<String> FIELDS =
            Set.of("kinds", "after", "warnAfter", "threshold", "onlyWhenOthersWait", "action");
    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})([smh])");
    private static final Pattern PER_CENT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*%?");

    private IdlePolicyParser() {}

    static IdlePolicy parse(YamlConfigReader yaml, Node node) {
        MappingNode map = yaml.mapping(node, "idle");
        Map<String, Node> f = yaml.fields(map, FIELDS);
        Set<JobKind> kinds = f.containsKey("kinds") ? kinds(yaml, f.get("kinds")) : Set.of(JobKind.NOTEBOOK);
        Duration after = f.containsKey("after") ? duration(yaml, f.get("after"), "idle.after") : Duration.ofMinutes(30);
        Duration warnAfter = f.containsKey("warnAfter")
                ? duration(yaml, f.get("warnAfter"), "idle.warnAfter")
                : after.multipliedBy(2).dividedBy(3);
        double threshold = f.containsKey("threshold") ? perCent(yaml, f.get("threshold")) / 100 : 0.05;
        boolean onlyWhenOthersWait = !f.containsKey("onlyWhenOthersWait")
                || TeamsFileParser.bool(yaml, f.get("onlyWhenOthersWait"), "idle.onlyWhenOthersWait");
        IdleAction action = IdleAction.PREEMPT;
        if (f.containsKey("action")) {
            try {
                action = IdleAction.fromWireName(yaml.string(f.get("action"), "idle.action"));
            } catch (IllegalArgumentException e) {
                throw yaml.error(f.get("action"), "idle.action " + e.getMessage());
            }
        }
        try {
            return new IdlePolicy(kinds, after, warnAfter, threshold, onlyWhenOthersWait, action);
        } catch (IllegalArgumentException e) {
            throw yaml.error(map, e.getMessage());
        }
    }

    private static Set<JobKind> kinds(YamlConfigReader yaml, Node node) {
        if (!(node instanceof SequenceNode list) || list.getValue().isEmpty()) {
            throw yaml.error(node, "idle.kinds must be a non-empty list of " + JobKind.accepted());
        }
        Set<JobKind> kinds = new LinkedHashSet<>();
        for (Node item : list.getValue()) {
            if (!(item instanceof ScalarNode scalar)) {
                throw yaml.error(item, "idle.kinds must be a list of " + JobKind.accepted());
            }
            try {
                kinds.add(JobKind.fromWireName(scalar.getValue()));
            } catch (IllegalArgumentException e) {
                throw yaml.error(item, "idle.kinds: each kind " + e.getMessage());
            }
        }
        return kinds;
    }

    private static Duration duration(YamlConfigReader yaml, Node node, String field) {
        String text = yaml.string(node, field).trim();
        Matcher m = DURATION.matcher(text);
        if (!m.matches()) {
            throw yaml.error(node, field + " must be a duration such as 90s, 30m or 2h, was '" + text + "'");
        }
        long amount = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
        };
    }

    private static double perCent(YamlConfigReader yaml, Node node) {
        String text = yaml.string(node, "idle.threshold").trim();
        Matcher m = PER_CENT.matcher(text);
        double value = m.matches() ? Double.parseDouble(m.group(1)) : -1;
        if (!(value >= 0 && value <= 100)) {
            throw yaml.error(node, "idle.threshold must be a utilisation between 0% and 100%, was '" + text + "'");
        }
        return value;
    }
}
