package io.quotient.it.soak;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.it.deploy.QuotientApi;
import io.quotient.it.deploy.Requests;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Measures recovery after a fault: a small probe job (a tenth of a GPU, well within the probe team's guarantee)
 * is deployed through whichever replica answers, and the time from the fault's end until the API server shows it
 * placed is the recovery time; then the probe is deleted. No placement within the bound is recorded as
 * {@code unrecovered}, a violation.
 */
final class Probes {

    static final String TEAM = "probe";
    static final long GUARANTEE_MILLI = 1000;
    private static final long BOUND_MS = 120_000;
    private static final long RETRY_MS = 500;

    private final History history;
    private final List<Replica> replicas;
    private final DynamicKubernetesApi gpuJobs;
    private final String namespace;
    private int probes;

    Probes(History history, List<Replica> replicas, ApiClient client, String namespace) {
        this.history = history;
        this.replicas = replicas;
        this.gpuJobs = new DynamicKubernetesApi("quotient.io", "v1alpha1", "gpujobs", client);
        this.namespace = namespace;
    }

    /** Probes after a fault of {@code kind} that ended at {@code faultEnd} (history time). */
    void measure(String kind, long faultEnd) throws InterruptedException {
        String name = "probe-" + (++probes);
        long deadline = faultEnd + BOUND_MS;
        int status = -1;
        while (status != 201 && status != 202 && status != 409 && history.now() < deadline) {
            QuotientApi.Answer answer = firstAnswer(
                    api -> api.deploy(TEAM, Requests.body(name, Map.of("fraction", 0.1, "fractionLimit", 0.1))));
            status = answer == null ? -1 : answer.status();
            if (status != 201 && status != 202 && status != 409) {
                Thread.sleep(RETRY_MS);
            }
        }
        JsonObject deploy = history.entry("op");
        deploy.addProperty("op", "deploy");
        deploy.addProperty("team", TEAM);
        deploy.addProperty("job", name);
        deploy.addProperty("kind", "probe");
        deploy.addProperty("status", status == 409 ? 201 : status);
        history.write(deploy);
        while (history.now() < deadline && !placed(name)) {
            Thread.sleep(RETRY_MS / 2);
        }
        long now = history.now();
        JsonObject result = history.entry(now < deadline ? "recovered" : "unrecovered");
        result.addProperty("fault", kind);
        result.addProperty("faultEnd", faultEnd);
        result.addProperty("seconds", (now - faultEnd) / 1000.0);
        history.write(result);
        remove(name);
    }

    private boolean placed(String name) {
        var answer = gpuJobs.get(namespace, TEAM + "." + name);
        if (!answer.isSuccess()) {
            return false;
        }
        DynamicKubernetesObject job = answer.getObject();
        JsonObject status = job.getRaw().has("status") ? job.getRaw().getAsJsonObject("status") : new JsonObject();
        String phase = Observation.text(status, "phase");
        return "Placed".equals(phase) || "Running".equals(phase);
    }

    private void remove(String name) throws InterruptedException {
        JsonObject entry = history.entry("op");
        entry.addProperty("op", "delete");
        entry.addProperty("team", TEAM);
        entry.addProperty("job", name);
        history.write(entry);
        long deadline = history.now() + BOUND_MS;
        while (history.now() < deadline) {
            QuotientApi.Answer answer = firstAnswer(api -> api.delete(TEAM, name));
            if (answer != null && (answer.status() == 200 || answer.status() == 404)) {
                return;
            }
            Thread.sleep(RETRY_MS);
        }
    }

    private QuotientApi.Answer firstAnswer(Function<QuotientApi, QuotientApi.Answer> call) {
        for (Replica replica : replicas) {
            QuotientApi.Answer answer = Operations.call(replica, call);
            if (answer != null) {
                return answer;
            }
        }
        return null;
    }
}
