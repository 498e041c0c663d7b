package io.quotient.it.deploy;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.Watch;
import io.kubernetes.client.util.Watchable;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.ListOptions;
import io.quotient.adapters.template.TemplateRenderer;
import io.quotient.deploy.port.IdleCondition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Every {@code Idle} condition the GpuJobs of the plane carried, per job (its team and job labels), in the order
 * seen, by watching them: a released
 * notebook's GpuJob is removed with its pod a moment after the service wrote {@code IdleReleased}, too soon for a
 * poll to be sure to see it.
 */
final class IdleConditions implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(IdleConditions.class.getName());

    /** One condition as stored: its reason ({@code IdleWarning}, {@code IdleReleased}) and message. */
    record Seen(String reason, String message) {}

    private final DynamicKubernetesApi gpuJobs;
    private final Map<String, List<Seen>> byJob = new ConcurrentHashMap<>();
    private final Thread watcher;
    private volatile boolean closed;
    private volatile Watchable<DynamicKubernetesObject> watch;

    private IdleConditions(ApiClient client) {
        gpuJobs = new DynamicKubernetesApi("quotient.io", "v1alpha1", "gpujobs", client);
        watcher = new Thread(this::watchLoop, "idle-conditions");
        watcher.setDaemon(true);
    }

    /** Starts watching the GpuJobs of every namespace (the client must have no read timeout). */
    static IdleConditions watch(ApiClient client) {
        IdleConditions conditions = new IdleConditions(client);
        conditions.watcher.start();
        return conditions;
    }

    /** The distinct conditions the GpuJob of job {@code name} of {@code team} carried, oldest first. */
    List<Seen> of(String team, String name) {
        return new ArrayList<>(byJob.getOrDefault(team + "/" + name, List.of()));
    }

    private void watchLoop() {
        while (!closed) {
            ListOptions options = new ListOptions();
            options.setTimeoutSeconds(300);
            try (Watchable<DynamicKubernetesObject> events = gpuJobs.watch(options)) {
                watch = events;
                for (Watch.Response<DynamicKubernetesObject> event : events) {
                    if (event.object != null) {
                        record(event.object.getRaw());
                    }
                }
            } catch (Exception e) {
                // the watch ended (timeout, closed, plane hiccup): a new one lists the current objects again
                if (!closed) {
                    LOG.log(System.Logger.Level.INFO, "GpuJob watch ended, watching again: " + e);
                }
            }
        }
    }

    private void record(JsonObject gpuJob) {
        JsonObject labels = gpuJob.getAsJsonObject("metadata").getAsJsonObject("labels");
        if (labels == null || !labels.has(TemplateRenderer.TEAM_LABEL) || !labels.has(TemplateRenderer.JOB_LABEL)) {
            return;
        }
        String job = labels.get(TemplateRenderer.TEAM_LABEL).getAsString() + "/"
                + labels.get(TemplateRenderer.JOB_LABEL).getAsString();
        JsonObject status = gpuJob.getAsJsonObject("status");
        JsonElement conditions = status == null ? null : status.get("conditions");
        if (conditions == null || !conditions.isJsonArray()) {
            return;
        }
        for (JsonElement element : conditions.getAsJsonArray()) {
            JsonObject condition = element.getAsJsonObject();
            if (IdleCondition.TYPE.equals(text(condition, "type"))) {
                Seen seen = new Seen(text(condition, "reason"), text(condition, "message"));
                List<Seen> list = byJob.computeIfAbsent(job, n -> new CopyOnWriteArrayList<>());
                if (list.isEmpty() || !list.get(list.size() - 1).equals(seen)) {
                    list.add(seen);
                }
            }
        }
    }

    private static String text(JsonObject object, String field) {
        JsonElement value = object.get(field);
        return value == null || value.isJsonNull() ? null : value.getAsString();
    }

    @Override
    public void close() {
        closed = true;
        Watchable<DynamicKubernetesObject> current = watch;
        if (current != null) {
            try {
                current.close();
            } catch (Exception e) {
                // closing a watch that already ended
            }
        }
        watcher.interrupt();
    }
}
