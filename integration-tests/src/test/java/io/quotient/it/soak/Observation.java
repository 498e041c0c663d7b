package io.quotient.it.soak;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One look at the API server, as written to the history ({@code "type":"obs"}): the GpuJobs, the workloads (Jobs),
 * the live pods per job, the reservation pods, the soak's nodes, the Lease and the service's new events. Times are
 * milliseconds since the run started.
 *
 * @param t            when the look began
 * @param jobs         every GpuJob of the namespace
 * @param workloads    the owner ({@code team/job}, from its labels) of each Job not being deleted
 * @param livePods     per job ({@code team/job}) the pods that are Pending or Running and not being deleted
 * @param reservations GPUs ({@code node/index}) held by reservation pods not being deleted
 * @param nodes        the soak's nodes and their GPU counts (cordoned ones included)
 * @param lease        the Lease {@code quotient-leader}, or null when none exists
 * @param events       the service's events first seen in this look
 * @param kubeflow     the workloads and notebook pods created directly in the teams' namespaces
 */
record Observation(
        long t,
        List<ObservedJob> jobs,
        List<String> workloads,
        Map<String, Integer> livePods,
        List<String> reservations,
        Map<String, Integer> nodes,
        LeaseState lease,
        List<DecisionEvent> events,
        KubeflowLook kubeflow) {

    /** A look without Kubeflow objects (histories written before the soak created them). */
    Observation(
            long t,
            List<ObservedJob> jobs,
            List<String> workloads,
            Map<String, Integer> livePods,
            List<String> reservations,
            Map<String, Integer> nodes,
            LeaseState lease,
            List<DecisionEvent> events) {
        this(t, jobs, workloads, livePods, reservations, nodes, lease, events, KubeflowLook.NONE);
    }

    /**
     * A GpuJob: its phase, where it is placed ({@code gpus}: index and milli per GPU), quota state, reason; for a
     * gang, how many replicas it asks for and where its further replicas are placed (whole GPUs each).
     */
    record ObservedJob(
            String team,
            String job,
            String phase,
            String node,
            List<int[]> gpus,
            String quota,
            String reason,
            long demandMilli,
            int replicas,
            List<OtherReplica> others) {

        ObservedJob {
            others = others == null ? List.of() : List.copyOf(others);
        }

        String key() {
            return team + "/" + job;
        }

        boolean holds() {
            return "Placed".equals(phase) || "Running".equals(phase);
        }

        boolean gang() {
            return replicas > 1;
        }

        long heldMilli() {
            return gpus.stream().mapToLong(g -> g[1]).sum()
                    + 1000L * others.stream().mapToInt(o -> o.gpus().size()).sum();
        }
    }

    /** A gang's further replica: its node and GPU indices. */
    record OtherReplica(String node, List<Integer> gpus) {}

    /** The Lease as read: holder, acquire and renew times (ms since the start), transitions. */
    record LeaseState(String holder, long acquire, long renew, int transitions) {}

    /** A decision event of the service: which replica reported it, why, when (second precision), on what. */
    record DecisionEvent(String instance, String reason, long at, String object) {}

    JsonObject toJson() {
        JsonObject o = new JsonObject();
        o.addProperty("t", t);
        o.addProperty("type", "obs");
        JsonArray js = new JsonArray();
        for (ObservedJob j : jobs) {
            JsonObject x = new JsonObject();
            x.addProperty("team", j.team());
            x.addProperty("job", j.job());
            x.addProperty("phase", j.phase());
            x.addProperty("node", j.node());
            JsonArray gpus = new JsonArray();
            for (int[] g : j.gpus()) {
                JsonArray pair = new JsonArray();
                pair.add(g[0]);
                pair.add(g[1]);
                gpus.add(pair);
            }
            x.add("gpus", gpus);
            x.addProperty("quota", j.quota());
            x.addProperty("reason", j.reason());
            x.addProperty("demand", j.demandMilli());
            if (j.gang()) {
                x.addProperty("replicas", j.replicas());
                JsonArray others = new JsonArray();
                for (OtherReplica other : j.others()) {
                    JsonObject r = new JsonObject();
                    r.addProperty("node", other.node());
                    JsonArray indices = new JsonArray();
                    other.gpus().forEach(indices::add);
                    r.add("gpus", indices);
                    others.add(r);
                }
                x.add("others", others);
            }
            js.add(x);
        }
        o.add("jobs", js);
        o.add("workloads", strings(workloads));
        JsonObject pods = new JsonObject();
        livePods.forEach(pods::addProperty);
        o.add("pods", pods);
        o.add("reservations", strings(reservations));
        JsonObject ns = new JsonObject();
        nodes.forEach(ns::addProperty);
        o.add("nodes", ns);
        if (lease != null) {
            JsonObject l = new JsonObject();
            l.addProperty("holder", lease.holder());
            l.addProperty("acquire", lease.acquire());
            l.addProperty("renew", lease.renew());
            l.addProperty("transitions", lease.transitions());
            o.add("lease", l);
        }
        JsonArray es = new JsonArray();
        for (DecisionEvent e : events) {
            JsonObject x = new JsonObject();
            x.addProperty("instance", e.instance());
            x.addProperty("reason", e.reason());
            x.addProperty("at", e.at());
            x.addProperty("object", e.object());
            es.add(x);
        }
        o.add("events", es);
        o.add("kubeflow", kubeflow.toJson());
        return o;
    }

    static Observation fromJson(JsonObject o) {
        List<ObservedJob> jobs = new ArrayList<>();
        for (JsonElement e : array(o, "jobs")) {
            JsonObject x = e.getAsJsonObject();
            List<int[]> gpus = new ArrayList<>();
            for (JsonElement g : array(x, "gpus")) {
                gpus.add(new int[] {
                    g.getAsJsonArray().get(0).getAsInt(),
                    g.getAsJsonArray().get(1).getAsInt()
                });
            }
            jobs.add(new ObservedJob(
                    text(x, "team"),
                    text(x, "job"),
                    text(x, "phase"),
                    text(x, "node"),
                    gpus,
                    text(x, "quota"),
                    text(x, "reason"),
                    x.has("demand") ? x.get("demand").getAsLong() : 0,
                    x.has("replicas") ? x.get("replicas").getAsInt() : 1,
                    others(x)));
        }
        Map<String, Integer> pods = new LinkedHashMap<>();
        if (o.has("pods")) {
            o.getAsJsonObject("pods")
                    .entrySet()
                    .forEach(p -> pods.put(p.getKey(), p.getValue().getAsInt()));
        }
        Map<String, Integer> nodes = new LinkedHashMap<>();
        if (o.has("nodes")) {
            o.getAsJsonObject("nodes")
                    .entrySet()
                    .forEach(n -> nodes.put(n.getKey(), n.getValue().getAsInt()));
        }
        LeaseState lease = null;
        if (o.has("lease")) {
            JsonObject l = o.getAsJsonObject("lease");
            lease = new LeaseState(
                    text(l, "holder"),
                    l.get("acquire").getAsLong(),
                    l.get("renew").getAsLong(),
                    l.get("transitions").getAsInt());
        }
        List<DecisionEvent> events = new ArrayList<>();
        for (JsonElement e : array(o, "events")) {
            JsonObject x = e.getAsJsonObject();
            events.add(new DecisionEvent(
                    text(x, "instance"), text(x, "reason"), x.get("at").getAsLong(), text(x, "object")));
        }
        return new Observation(
                o.get("t").getAsLong(),
                jobs,
                stringList(o, "workloads"),
                pods,
                stringList(o, "reservations"),
                nodes,
                lease,
                events,
                KubeflowLook.fromJson(o.has("kubeflow") ? o.getAsJsonObject("kubeflow") : null));
    }

    /** The further replicas as the API server's status lists them ({@code node}, {@code gpus}), or as written. */
    static List<OtherReplica> others(JsonObject o) {
        List<OtherReplica> others = new ArrayList<>();
        for (JsonElement e : array(o, o.has("others") ? "others" : "replicas")) {
            if (!e.isJsonObject()) {
                continue;
            }
            List<Integer> indices = new ArrayList<>();
            array(e.getAsJsonObject(), "gpus").forEach(i -> indices.add(i.getAsInt()));
            others.add(new OtherReplica(text(e.getAsJsonObject(), "node"), indices));
        }
        return others;
    }

    private static JsonArray strings(List<String> values) {
        JsonArray a = new JsonArray();
        values.forEach(a::add);
        return a;
    }

    private static List<String> stringList(JsonObject o, String field) {
        List<String> values = new ArrayList<>();
        array(o, field).forEach(e -> values.add(e.getAsString()));
        return values;
    }

    static JsonArray array(JsonObject o, String field) {
        return o.has(field) && o.get(field).isJsonArray() ? o.getAsJsonArray(field) : new JsonArray();
    }

    static String text(JsonObject o, String field) {
        return o.has(field) && !o.get(field).isJsonNull() ? o.get(field).getAsString() : null;
    }
}
