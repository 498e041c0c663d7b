package io.quotient.replay;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON the replay's results are read by (the fields of issue 33), one object per policy. */
public final class ReplayJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ReplayJson() {}

    /** One object for one result, a list for several. */
    public static String of(List<ReplayResult> results) {
        try {
            Object value = results.size() == 1
                    ? object(results.get(0))
                    : results.stream().map(ReplayJson::object).toList();
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render the replay's JSON: " + e.getMessage(), e);
        }
    }

    static Map<String, Object> object(ReplayResult r) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("policy", r.policy());
        root.put("nodes", r.nodes());
        root.put("gpus", r.gpus());
        fields(root, r.overall());
        root.put("jainFairnessPerDay", perDay(r.jainPerDay()));
        root.put("models", models(r.models()));
        root.put("modelGroups", groups(r.modelGroups()));
        root.put("decisions", r.decisions());
        root.put("decisionsPerSecond", round(r.decisionsPerSecond()));
        root.put("wallSeconds", round(r.wallSeconds()));
        List<Map<String, Object>> teams = new ArrayList<>();
        r.teams().forEach((name, m) -> {
            Map<String, Object> team = new LinkedHashMap<>();
            team.put("name", name);
            team.put("guaranteedGpus", r.guaranteesMilli().get(name) / 1000.0);
            fields(team, m);
            teams.add(team);
        });
        root.put("teams", teams);
        return root;
    }

    private static void fields(Map<String, Object> o, Metrics m) {
        o.put("jobs", m.jobs());
        o.put("finished", m.finished());
        o.put("gpuAllocationPctWhileWaiting", round(m.gpuAllocationPctWhileWaiting()));
        o.put("queueDelaySeconds", quantiles(m.queueDelaySeconds(), true, true));
        o.put("jctSeconds", quantiles(m.jctSeconds(), true, false));
        o.put("timeToGuaranteeSeconds", quantiles(m.timeToGuaranteeSeconds(), false, true));
        o.put("guaranteeDeficitGpuHours", round(m.guaranteeDeficitGpuHours()));
        o.put("guaranteeDeficitBlockedGpuHours", round(m.guaranteeDeficitBlockedGpuHours()));
        o.put("preemptions", m.preemptions());
        o.put("moves", m.moves());
        o.put("lostGpuHours", round(m.lostGpuHours()));
        o.put("deliveredGpuHours", round(m.deliveredGpuHours()));
        o.put("fragmentationDelayJobHours", round(m.fragmentationDelayJobHours()));
        o.put("jainFairness", round(m.jainFairness()));
        if (m.idle().shown()) {
            o.put("idle", idle(m.idle()));
        }
    }

    /** Only for a trace with idle profiles, or when the idle policy released something. */
    private static Map<String, Object> idle(IdleFigures f) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("idleGpuHours", round(f.idleGpuHours()));
        o.put("returnedGpuHours", round(f.returnedGpuHours()));
        o.put("stoppedGpuHours", round(f.stoppedGpuHours()));
        o.put("stops", f.stops());
        o.put("preemptions", f.preemptions());
        o.put("waiters", f.waiters());
        o.put("waiterQueueDelaySeconds", quantiles(f.waiterQueueDelaySeconds(), true, false));
        return o;
    }

    private static List<Map<String, Object>> perDay(List<DayFairness> days) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (DayFairness d : days) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("day", d.day().toString());
            o.put("jain", round(d.jain()));
            list.add(o);
        }
        return list;
    }

    private static List<Map<String, Object>> models(List<ModelUsage> models) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (ModelUsage m : models) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("model", m.model());
            o.put("gpus", m.gpus());
            o.put("allocationPct", round(m.allocationPct()));
            o.put("allocationPctWhileWaiting", round(m.allocationPctWhileWaiting()));
            Map<String, Object> byTeam = new LinkedHashMap<>();
            m.gpuHoursByTeam().forEach((team, hours) -> byTeam.put(team, round(hours)));
            o.put("gpuHoursByTeam", byTeam);
            list.add(o);
        }
        return list;
    }

    private static List<Map<String, Object>> groups(List<GroupGuarantee> groups) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (GroupGuarantee g : groups) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("team", g.team());
            o.put("group", g.group());
            o.put("guaranteedGpus", g.guaranteedMilli() / 1000.0);
            o.put("timeToGuaranteeSeconds", quantiles(g.timeToGuaranteeSeconds(), false, true));
            o.put("guaranteeDeficitGpuHours", round(g.guaranteeDeficitGpuHours()));
            list.add(o);
        }
        return list;
    }

    private static Map<String, Object> quantiles(Quantiles q, boolean p95, boolean p99) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("p50", round(q.p50()));
        if (p95) {
            o.put("p95", round(q.p95()));
        }
        if (p99) {
            o.put("p99", round(q.p99()));
        }
        return o;
    }

    /** Three decimals; null for NaN (a measure with nothing to measure). */
    private static Double round(double x) {
        return Double.isNaN(x) || Double.isInfinite(x) ? null : Math.round(x * 1000) / 1000.0;
    }
}
