package io.quotient.adapters.k8s.records;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.quotient.adapters.k8s.ApiCalls;
import io.quotient.adapters.k8s.KubernetesCallException;
import io.quotient.core.model.UsageRecord;
import io.quotient.deploy.port.FairShareUsageStore;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The teams' usage history behind decayed fair shares as one ConfigMap in the service's namespace
 * ({@value #NAME}, the record whole in one key), so that it survives a restart and a failover: the leader that
 * starts its term loads it, and only the leader saves it (the caller's gate).
 *
 * <p>Writes carry the resourceVersion this store last read or wrote (optimistic concurrency): a late write by a
 * replica that lost the office while paused fails on the version instead of overwriting what the new leader saved.
 * After such a conflict the store reads the current version, so that a leader whose own earlier write was answered
 * late, or whose object was edited by hand, overwrites it with its history at the next save.
 *
 * <p>A ConfigMap that does not hold a record this version reads (edited by hand, a future format) is logged and
 * treated as absent: the history starts empty and the next save replaces it; the service never fails to start on it.
 */
public final class KubernetesFairShareUsageStore implements FairShareUsageStore {

    public static final String NAME = "quotient-fair-share-usage";
    public static final String KEY = "record.json";
    private static final Logger LOG = LoggerFactory.getLogger(KubernetesFairShareUsageStore.class);

    private final GenericKubernetesApi<V1ConfigMap, V1ConfigMapList> api;
    private final String namespace;
    /** The resourceVersion last read or written; null: the ConfigMap is not known to exist. */
    private volatile String version;

    public KubernetesFairShareUsageStore(ApiClient client, String namespace) {
        this.api = new GenericKubernetesApi<>(V1ConfigMap.class, V1ConfigMapList.class, "", "v1", "configmaps", client);
        this.namespace = namespace;
    }

    @Override
    public Optional<UsageRecord> load() {
        Optional<V1ConfigMap> stored = read();
        version = stored.map(m -> m.getMetadata().getResourceVersion()).orElse(null);
        if (stored.isEmpty()) {
            return Optional.empty();
        }
        String text =
                stored.get().getData() == null ? null : stored.get().getData().get(KEY);
        if (text == null) {
            LOG.warn(
                    "ConfigMap {}/{} has no key {}: the fair-share usage history starts empty and is rewritten at"
                            + " the next save",
                    namespace,
                    NAME,
                    KEY);
            return Optional.empty();
        }
        try {
            return Optional.of(FairShareUsageCodec.decode(text));
        } catch (IllegalArgumentException e) {
            LOG.warn(
                    "ConfigMap {}/{} is corrupt ({}): the fair-share usage history starts empty and the ConfigMap is"
                            + " rewritten at the next save; decayed fair shares forget the past until then",
                    namespace,
                    NAME,
                    e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * Saves the record over the version this store knows.
     *
     * @throws KubernetesCallException when the API server refuses the write (a conflict included: the write is lost,
     *                                 the next one goes over the current version)
     */
    @Override
    public void save(UsageRecord record) {
        String known = version;
        V1ConfigMap map = new V1ConfigMap()
                .metadata(new V1ObjectMeta().namespace(namespace).name(NAME).resourceVersion(known))
                .data(Map.of(KEY, FairShareUsageCodec.encode(record)));
        String what = "storing the fair-share usage history in ConfigMap " + namespace + "/" + NAME;
        KubernetesApiResponse<V1ConfigMap> written =
                ApiCalls.call(what, () -> known == null ? api.create(map) : api.update(map));
        if (written.getHttpStatusCode() == ApiCalls.CONFLICT || written.getHttpStatusCode() == ApiCalls.NOT_FOUND) {
            // another writer since this store last looked (or the object is gone): the next save goes over what is
            // there now; the caller writes only while it leads, so a replica that lost the office writes no more
            version = read().map(m -> m.getMetadata().getResourceVersion()).orElse(null);
            throw ApiCalls.failure(written, what + " over resourceVersion " + known);
        }
        version = ApiCalls.expect(written, what).getMetadata().getResourceVersion();
    }

    private Optional<V1ConfigMap> read() {
        String what = "reading ConfigMap " + namespace + "/" + NAME;
        KubernetesApiResponse<V1ConfigMap> got = ApiCalls.call(what, () -> api.get(namespace, NAME));
        if (got.getHttpStatusCode() == ApiCalls.NOT_FOUND) {
            return Optional.empty();
        }
        return Optional.of(ApiCalls.expect(got, what));
    }
}
