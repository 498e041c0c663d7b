package io.quotient.it.soak;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The story of the jobs a failed soak's first violations name, drawn from its history: every change of their phase and
 * placement, the operations and decision events on them, the faults and the Lease's holders, one line each. It goes
 * into the assertion's message, because where the soak fails in CI the history file is not kept (the short soak once
 * failed there with nothing but the violations to go by).
 */
final class ViolationTrace {

    private static final Pattern JOB = Pattern.compile("\\b([a-z][a-z0-9-]*)/([a-z][a-z0-9-]*)\\b");
    private static final int VIOLATIONS_READ = 3;
    private static final String GONE = "gone";

    private ViolationTrace() {}

    /** The trace, at most {@code maxLines} lines (the first ones kept); empty without violations. */
    static String of(Path history, List<String> violations, int maxLines) {
        Set<String> jobs = jobsNamed(violations);
        if (jobs.isEmpty()) {
            return "";
        }
        List<String> lines = new ArrayList<>();
        lines.add("trace of " + jobs + " (ms since the start):");
        Map<String, String> lastPlacement = new HashMap<>();
        String lastHolder = null;
        try {
            for (String raw : Files.readAllLines(history)) {
                JsonObject entry = JsonParser.parseString(raw).getAsJsonObject();
                String type = text(entry, "type");
                long t = entry.has("t") ? entry.get("t").getAsLong() : -1;
                if ("fault".equals(type)) {
                    lines.add("t=" + t + " fault " + text(entry, "fault") + " on " + text(entry, "target") + " until "
                            + text(entry, "end"));
                } else if ("op".equals(type) && jobs.contains(text(entry, "team") + "/" + text(entry, "job"))) {
                    lines.add("t=" + t + " op " + entry);
                } else if ("obs".equals(type)) {
                    lastHolder = leaseChange(entry, t, lastHolder, lines);
                    placements(entry, t, jobs, lastPlacement, lines);
                    events(entry, jobs, lines);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (lines.size() > maxLines) {
            int left = lines.size() - maxLines;
            lines = new ArrayList<>(lines.subList(0, maxLines));
            lines.add("(" + left + " more lines in the history)");
        }
        return String.join("\n", lines);
    }

    /** The jobs ({@code team/job}) the first violations name. */
    static Set<String> jobsNamed(List<String> violations) {
        Set<String> jobs = new LinkedHashSet<>();
        for (String violation : violations.subList(0, Math.min(VIOLATIONS_READ, violations.size()))) {
            Matcher m = JOB.matcher(violation);
            while (m.find()) {
                if (!m.group(1).startsWith("soak")) { // node/index slots are not jobs
                    jobs.add(m.group(1) + "/" + m.group(2));
                }
            }
        }
        return jobs;
    }

    private static String leaseChange(JsonObject obs, long t, String lastHolder, List<String> lines) {
        JsonElement lease = obs.get("lease");
        String holder = lease == null || lease.isJsonNull() ? null : text(lease.getAsJsonObject(), "holder");
        if (!Objects.equals(holder, lastHolder)) {
            lines.add("t=" + t + " Lease held by " + holder);
        }
        return holder;
    }

    private static void placements(
            JsonObject obs, long t, Set<String> jobs, Map<String, String> last, List<String> lines) {
        Set<String> seen = new LinkedHashSet<>();
        for (JsonElement element : obs.getAsJsonArray("jobs")) {
            JsonObject job = element.getAsJsonObject();
            String key = text(job, "team") + "/" + text(job, "job");
            if (jobs.contains(key)) {
                seen.add(key);
                String now = text(job, "phase") + " on " + text(job, "node") + " gpus " + job.get("gpus")
                        + (job.has("others") ? " others " + job.get("others") : "");
                if (!now.equals(last.put(key, now))) {
                    lines.add("t=" + t + " " + key + " " + now);
                }
            }
        }
        for (String key : jobs) {
            if (!seen.contains(key) && last.containsKey(key) && !GONE.equals(last.get(key))) {
                last.put(key, GONE);
                lines.add("t=" + t + " " + key + " has no GpuJob");
            }
        }
    }

    private static void events(JsonObject obs, Set<String> jobs, List<String> lines) {
        if (!obs.has("events")) {
            return;
        }
        for (JsonElement element : obs.getAsJsonArray("events")) {
            JsonObject event = element.getAsJsonObject();
            String object = text(event, "object");
            if (object != null && jobs.contains(object.replaceFirst("\\.", "/"))) {
                lines.add("t=" + text(event, "at") + " event " + text(event, "reason") + " on " + object + " by "
                        + text(event, "instance"));
            }
        }
    }

    private static String text(JsonObject object, String field) {
        return object.has(field) && !object.get(field).isJsonNull()
                ? object.get(field).getAsString()
                : null;
    }
}
