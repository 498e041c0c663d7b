package io.quotient.adapters.k8s.adoption;

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.core.model.JobId;
import java.time.Clock;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the StatefulSet of a pod refused at admission to create it again now: its controller retries a failed create
 * with an exponential back-off (up to about 16 minutes), while any change of the StatefulSet makes it try at once. So
 * when the queue places the pod's job, an annotation on the StatefulSet's own metadata (not its pod template, which
 * would roll its pods) is set to the time of the placement. A StatefulSet's pods are named {@code <set>-<ordinal>};
 * a pod without one (a bare pod) has nothing to nudge: its author creates it again.
 */
final class StatefulSetRetry {

    static final String ANNOTATION = "quotient.io/placed-at";
    private static final Pattern ORDINAL = Pattern.compile("(.+)-(\\d+)");
    private static final Logger LOG = LoggerFactory.getLogger(StatefulSetRetry.class);
    private static final int NOT_FOUND = 404;

    private final DynamicKubernetesApi statefulSets;
    private final Clock clock;

    StatefulSetRetry(ApiClient client) {
        this.statefulSets = new DynamicKubernetesApi("apps", "v1", "statefulsets", client);
        this.clock = Clock.systemUTC();
    }

    /** The StatefulSet a pod of this name would belong to, if the name has an ordinal. */
    static Optional<String> statefulSetOf(String podName) {
        Matcher matcher = ORDINAL.matcher(podName);
        return matcher.matches() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    /** The merge patch setting the annotation (the StatefulSet's metadata only). */
    static JsonObject patch(String value) {
        JsonObject annotations = new JsonObject();
        annotations.addProperty(ANNOTATION, value);
        JsonObject metadata = new JsonObject();
        metadata.add("annotations", annotations);
        JsonObject patch = new JsonObject();
        patch.add("metadata", metadata);
        return patch;
    }

    /** Best effort: a failure only leaves the retry to the controller's back-off. */
    void nudge(String namespace, String podName, JobId job) {
        Optional<String> set = statefulSetOf(podName);
        if (set.isEmpty()) {
            return;
        }
        KubernetesApiResponse<DynamicKubernetesObject> patched = statefulSets.patch(
                namespace,
                set.get(),
                V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
                new V1Patch(patch(clock.instant().toString()).toString()));
        if (patched.isSuccess()) {
            LOG.info(
                    "job {} of team {} placed: StatefulSet {}/{} asked to create pod {} now",
                    job.name(),
                    job.team(),
                    namespace,
                    set.get(),
                    podName);
        } else if (patched.getHttpStatusCode() != NOT_FOUND) {
            LOG.warn(
                    "job {} of team {} placed, but asking StatefulSet {}/{} to retry pod {} failed: HTTP {}; its"
                            + " controller retries after its back-off",
                    job.name(),
                    job.team(),
                    namespace,
                    set.get(),
                    podName,
                    patched.getHttpStatusCode());
        }
    }
}
