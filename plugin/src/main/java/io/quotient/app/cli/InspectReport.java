package io.quotient.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The dashboard's views as text, from one answer of {@code GET /api/v1/dashboard}: the teams (with their fair share
 * when the service reports one, and per model group of their quotas), the GPU map (one line per node, one cell per GPU), the shared GPUs in detail, the
 * pending jobs with their reasons, the recent events and the cluster's fragmentation.
 */
final class InspectReport {

    /** Events shown; the page shows more, a terminal has less room. */
    private static final int EVENTS = 15;

    private InspectReport() {}

    static String render(JsonNode view) {
        Map<String, Character> letters = letters(view.path("teams"));
        StringBuilder out = new StringBuilder();
        out.append("TEAMS\n").append(teams(view)).append('\n');
        String groups = modelGroups(view.path("teams"));
        if (!groups.isEmpty()) {
            out.append("MODEL GROUPS  (per team and GPU model group of its quota)\n")
                    .append(groups)
                    .append('\n');
        }
        out.append("GPU MAP  (per GPU: a team's letter, upper case when one job holds it whole, lower case for shares;")
                .append(" '.' free, '+' several teams; * borrowed)\n")
                .append(legend(letters))
                .append(gpuMap(view.path("cluster"), letters, view.path("placed")))
                .append('\n');
        String shared = sharedGpus(view.path("cluster"), view.path("placed"));
        if (!shared.isEmpty()) {
            out.append("SHARED GPUS\n").append(shared).append('\n');
        }
        out.append("PENDING\n").append(pending(view.path("pending"))).append('\n');
        out.append("RECENT EVENTS\n").append(events(view.path("recent"))).append(cluster(view.path("cluster")));
        return out.toString();
    }

    private static String teams(JsonNode view) {
        Map<String, Double> pendingGpus = new LinkedHashMap<>();
        view.path("pending")
                .forEach(p -> pendingGpus.merge(
                        p.path("team").asText(), p.path("gpus").asDouble(), Double::sum));
        TextTable table = new TextTable(
                "TEAM",
                "GUARANTEED",
                "FAIR SHARE",
                "MAX",
                "WEIGHT",
                "IN QUOTA",
                "BORROWED",
                "PENDING GPUS",
                "PENDING JOBS",
                "DECAYED USAGE",
                "OVER-QUOTA SHARE");
        view.path("teams")
                .forEach(t -> table.row(
                        t.path("name").asText(),
                        gpus(t.path("guaranteedGpus")),
                        fairShare(t),
                        t.path("maxGpus").isNumber() ? gpus(t.path("maxGpus")) : "-",
                        t.path("overQuotaWeight").asDouble(),
                        gpus(t.path("inQuotaGpus")),
                        gpus(t.path("overQuotaGpus")),
                        gpus(pendingGpus.getOrDefault(t.path("name").asText(), 0.0)),
                        t.path("pendingJobs").asInt(),
                        decayedUsage(t),
                        t.path("overQuotaShareGpus").isNumber() ? gpus(t.path("overQuotaShareGpus")) : "-"));
        return table.render();
    }

    /**
     * One row per team and model group its quota names: guaranteed, held, borrowed and fair share there; empty when
     * no team names groups (or the service reports none).
     */
    private static String modelGroups(JsonNode teams) {
        TextTable table = new TextTable("TEAM", "GROUP", "GUARANTEED", "MAX", "HELD", "BORROWED", "FAIR SHARE");
        boolean any = false;
        for (JsonNode t : teams) {
            for (JsonNode g : t.path("modelGroups")) {
                any = true;
                table.row(
                        t.path("name").asText(),
                        g.path("name").asText(),
                        gpus(g.path("guaranteedGpus")),
                        g.path("maxGpus").isNumber() ? gpus(g.path("maxGpus")) : "-",
                        gpus(g.path("heldGpus")),
                        gpus(g.path("borrowedGpus")),
                        g.path("fairShareGpus").isNumber() ? gpus(g.path("fairShareGpus")) : "-");
            }
        }
        return any ? table.render() : "";
    }

    /**
     * The decayed usage, or "instantaneous" when the service says fair shares have no memory (a null half-life);
     * "-" when it reports neither (an older service).
     */
    private static String decayedUsage(JsonNode team) {
        if (team.has("usageHalfLife") && team.path("usageHalfLife").isNull()) {
            return "instantaneous";
        }
        return team.path("decayedUsageGpus").isNumber() ? gpus(team.path("decayedUsageGpus")) : "-";
    }

    /** The fair share when the service reports one (a field whose name starts with "fairShare"), else "-". */
    private static String fairShare(JsonNode team) {
        for (Iterator<String> names = team.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (name.startsWith("fairShare") && team.path(name).isNumber()) {
                return gpus(team.path(name));
            }
        }
        return "-";
    }

    /** A letter per team in the service's order: A, B, ... Z, then a, b, ... (lower case marks shares instead). */
    private static Map<String, Character> letters(JsonNode teams) {
        Map<String, Character> letters = new LinkedHashMap<>();
        teams.forEach(t -> letters.put(t.path("name").asText(), (char) ('A' + Math.min(letters.size(), 25))));
        return letters;
    }

    private static String legend(Map<String, Character> letters) {
        List<String> parts = new ArrayList<>();
        letters.forEach((team, letter) -> parts.add(letter + " " + team));
        return parts.isEmpty() ? "" : "  " + String.join(", ", parts) + "\n";
    }

    private static String gpuMap(JsonNode cluster, Map<String, Character> letters, JsonNode placed) {
        TextTable table = new TextTable("NODE", "MODEL", "FREE", "FRAGMENTED", "FRACTIONS", "GPUS");
        for (JsonNode n : cluster.path("nodes")) {
            StringBuilder cells = new StringBuilder();
            for (JsonNode g : n.path("gpus")) {
                cells.append(cell(g, letters, placed));
            }
            table.row(
                    n.path("name").asText(),
                    n.path("gpuModel").asText(),
                    gpus(n.path("freeGpus")),
                    gpus(n.path("fragmentedGpus")),
                    n.path("fractionReady").asBoolean() ? "ready" : "not ready",
                    "[" + cells + "]");
        }
        return table.render();
    }

    /** Two characters per GPU: who holds it, and '*' when that is borrowed capacity. */
    private static String cell(JsonNode gpu, Map<String, Character> letters, JsonNode placed) {
        JsonNode jobs = gpu.path("jobs");
        if (jobs.isEmpty()) {
            return ". ";
        }
        boolean borrowed = false;
        String team = null;
        for (JsonNode j : jobs) {
            String key = j.path("team").asText() + "/" + j.path("name").asText();
            borrowed |= "OverQuota".equals(placed.path(key).path("quotaState").asText());
            team = team == null || team.equals(j.path("team").asText())
                    ? j.path("team").asText()
                    : "+";
        }
        char letter = "+".equals(team) ? '+' : letters.getOrDefault(team, '?');
        boolean whole = jobs.size() == 1 && jobs.get(0).path("share").asDouble() >= 0.9995;
        return (whole ? letter : Character.toLowerCase(letter)) + (borrowed ? "*" : " ");
    }

    /** GPUs held in parts: each job's share, the memory it reserves and what it may borrow up to its limit. */
    private static String sharedGpus(JsonNode cluster, JsonNode placed) {
        TextTable table = new TextTable("NODE", "GPU", "FREE", "UUID", "JOBS (share, reserved MiB, burst limit)");
        int rows = 0;
        for (JsonNode n : cluster.path("nodes")) {
            long memory = n.path("gpuMemoryMib").asLong();
            for (JsonNode g : n.path("gpus")) {
                boolean part = g.path("jobs").size() > 1
                        || (g.path("jobs").size() == 1
                                && g.path("jobs").get(0).path("share").asDouble() < 0.9995);
                if (!part) {
                    continue;
                }
                List<String> jobs = new ArrayList<>();
                for (JsonNode j : g.path("jobs")) {
                    double share = j.path("share").asDouble();
                    JsonNode limit = placed.path(j.path("team").asText() + "/"
                                    + j.path("name").asText())
                            .path("limitPerGpu");
                    jobs.add(j.path("team").asText() + "/" + j.path("name").asText() + " (" + gpus(share) + ", "
                            + Math.round(share * memory) + " MiB"
                            + (limit.isNumber() && limit.asDouble() > share
                                    ? ", up to " + gpus(limit.asDouble()) + ": "
                                            + Math.round((limit.asDouble() - share) * memory) + " MiB loaned"
                                    : "")
                            + ")");
                }
                table.row(
                        n.path("name").asText(),
                        g.path("index").asInt(),
                        gpus(g.path("free")),
                        g.path("uuid").isTextual() ? g.path("uuid").asText() : "-",
                        String.join(", ", jobs));
                rows++;
            }
        }
        return rows == 0 ? "" : table.render();
    }

    private static String pending(JsonNode pending) {
        if (pending.isEmpty()) {
            return "  nothing waits\n";
        }
        TextTable table = new TextTable("TEAM", "JOB", "GPUS", "PHASE", "WHY");
        pending.forEach(p -> table.row(
                p.path("team").asText(),
                p.path("name").asText(),
                gpus(p.path("gpus")),
                p.path("phase").asText(),
                p.path("reason").isTextual() ? p.path("reason").asText() : "-"));
        return table.render();
    }

    private static String events(JsonNode recent) {
        List<JsonNode> changes = new ArrayList<>();
        recent.forEach(e -> {
            if (!"Pending".equals(e.path("reason").asText())) { // the pending table says why jobs wait
                changes.add(e);
            }
        });
        if (changes.isEmpty()) {
            return "  no events yet\n";
        }
        TextTable table = new TextTable("TIME", "EVENT", "JOB", "MESSAGE");
        for (JsonNode e : changes.subList(Math.max(0, changes.size() - EVENTS), changes.size())) {
            String at = e.path("at").asText();
            table.row(
                    at.length() >= 19 ? at.substring(11, 19) : at,
                    e.path("reason").asText(),
                    (e.path("team").isTextual() ? e.path("team").asText() + "/" : "")
                            + e.path("job").asText(),
                    e.path("message").asText());
        }
        return table.render();
    }

    private static String cluster(JsonNode cluster) {
        JsonNode f = cluster.path("fragmentation");
        return String.format(
                Locale.ROOT,
                "%nCLUSTER  %s GPUs, %s free (%d whole GPUs, %d whole nodes free)%n"
                        + "FRAGMENTATION  %.2f %% of all GPUs, %.2f %% of the free GPUs are stranded"
                        + " for the expected job shapes%n",
                gpus(cluster.path("totalGpus")),
                gpus(cluster.path("freeGpus")),
                cluster.path("wholeFreeGpus").asInt(),
                cluster.path("wholeFreeNodes").asInt(),
                f.path("amountPercent").asDouble(),
                f.path("ratioPercent").asDouble());
    }

    private static String gpus(JsonNode value) {
        return gpus(value.asDouble());
    }

    /** GPU amounts without a useless ".0". */
    static String gpus(double v) {
        return v == Math.rint(v)
                ? Long.toString((long) v)
                : String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "");
    }
}
