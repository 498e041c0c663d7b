package io.quotient.adapters.k8s.records;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.quotient.adapters.k8s.ApiCalls;
import io.quotient.adapters.k8s.GpuJobResource;
import io.quotient.deploy.LogValues;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers a GpuJob that was applied with kubectl (so it has no status yet) but whose request is invalid: its status
 * becomes {@code Failed} with the same field and reason a REST deploy would get, so that {@code kubectl get gpujobs}
 * shows why nothing runs. Nothing is ever deployed for it. A GpuJob that already has a status (written by the
 * service) is left alone. Writes happen on a thread of their own: they are found while records are read.
 */
public final class RefusedGpuJobs implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RefusedGpuJobs.class);
    static final String FAILED = "Failed";

    private final GpuJobStatusWriter writer;
    private final ThreadPoolExecutor sender =
            new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(1000), r -> {
                Thread t = new Thread(r, "quotient-refused-gpujobs");
                t.setDaemon(true);
                return t;
            });

    public RefusedGpuJobs(ApiClient client) {
        this.writer = new GpuJobStatusWriter(client);
    }

    /** Marks the GpuJob Failed with {@code why}, unless it has a status already. */
    public void refuse(GpuJobResource resource, String why) {
        if (resource.getStatus() != null && resource.getStatus().phase() != null) {
            return;
        }
        try {
            sender.execute(() -> write(resource, why));
        } catch (RejectedExecutionException e) {
            LOG.warn(
                    "GpuJob {}/{} is invalid ({}) and could not be marked Failed: too many pending",
                    resource.getMetadata().getNamespace(),
                    resource.getMetadata().getName(),
                    why);
        }
    }

    private void write(GpuJobResource resource, String why) {
        V1ObjectMeta stored = resource.getMetadata();
        String reason = "refused, nothing was deployed: " + why + ". Delete this GpuJob and apply a corrected one";
        GpuJobResource update = new GpuJobResource(
                new V1ObjectMeta()
                        .name(stored.getName())
                        .namespace(stored.getNamespace())
                        .uid(stored.getUid())
                        .resourceVersion(stored.getResourceVersion()),
                resource.getSpec(),
                new GpuJobStatus(FAILED, null, null, null, reason, null, null, null, null, null));
        try {
            KubernetesApiResponse<GpuJobResource> response = writer.replaceStatus(update);
            if (response.isSuccess()) {
                LOG.info("GpuJob {}/{} refused: {}", stored.getNamespace(), stored.getName(), LogValues.escape(why));
            } else if (response.getHttpStatusCode() != ApiCalls.CONFLICT
                    && response.getHttpStatusCode() != ApiCalls.NOT_FOUND) {
                LOG.warn(
                        "marking GpuJob {}/{} Failed failed: HTTP {}",
                        stored.getNamespace(),
                        stored.getName(),
                        response.getHttpStatusCode());
            }
        } catch (RuntimeException e) {
            LOG.warn("marking GpuJob {}/{} Failed failed: {}", stored.getNamespace(), stored.getName(), e.toString());
        }
    }

    @Override
    public void close() {
        sender.shutdown();
    }
}
