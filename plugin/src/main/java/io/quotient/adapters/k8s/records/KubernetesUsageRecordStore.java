package io.quotient.adapters.k8s.records;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.options.ListOptions;
import io.quotient.adapters.k8s.ApiCalls;
import io.quotient.adapters.k8s.KubernetesNames;
import io.quotient.core.model.JobId;
import io.quotient.core.usage.JobUsageRecord;
import io.quotient.deploy.port.UsageRecordStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Usage records as ConfigMaps in the service's namespace, one per job ({@code quotient-usage.<team>.<job>}, labelled
 * {@value #LABEL}), the record whole in one key: one write replaces totals and baselines together. Writes are
 * unconditional (no resourceVersion): a record is self-consistent, so a late write of an older one by a replica that
 * just lost the office only makes the next leader re-count from that older point, from the enforcers' cumulative
 * counters — never twice, and allocation at most the accumulator's max-gap short.
 */
public final class KubernetesUsageRecordStore implements UsageRecordStore {

    static final String LABEL = "quotient.io/usage-record";
    static final String KEY = "record.json";
    private static final Logger LOG = LoggerFactory.getLogger(KubernetesUsageRecordStore.class);

    private final GenericKubernetesApi<V1ConfigMap, V1ConfigMapList> api;
    private final String namespace;

    public KubernetesUsageRecordStore(ApiClient client, String namespace) {
        this.api = new GenericKubernetesApi<>(V1ConfigMap.class, V1ConfigMapList.class, "", "v1", "configmaps", client);
        this.namespace = namespace;
    }

    static String name(JobId job) {
        return "quotient-usage." + KubernetesNames.ofJob(job);
    }

    @Override
    public List<JobUsageRecord> loadAll() {
        ListOptions labelled = new ListOptions();
        labelled.setLabelSelector(LABEL + "=true");
        String what = "listing the usage records in " + namespace;
        V1ConfigMapList list = ApiCalls.expect(ApiCalls.call(what, () -> api.list(namespace, labelled)), what);
        List<JobUsageRecord> records = new ArrayList<>();
        for (V1ConfigMap map : list.getItems()) {
            String text = map.getData() == null ? null : map.getData().get(KEY);
            try {
                records.add(UsageRecordCodec.decode(text == null ? "" : text));
            } catch (IllegalArgumentException e) {
                // one broken object must not stop accounting for every other job; it is rewritten on its next save
                LOG.warn(
                        "ignoring ConfigMap {}/{}: {}",
                        namespace,
                        map.getMetadata().getName(),
                        e.getMessage());
            }
        }
        return records;
    }

    @Override
    public void save(Collection<JobUsageRecord> records) {
        for (JobUsageRecord record : records) {
            V1ConfigMap map = new V1ConfigMap()
                    .metadata(new V1ObjectMeta()
                            .namespace(namespace)
                            .name(name(record.job()))
                            .labels(Map.of(
                                    LABEL,
                                    "true",
                                    "quotient.io/team",
                                    KubernetesNames.labelValue(record.job().team()),
                                    "quotient.io/job",
                                    KubernetesNames.labelValue(record.job().name()))))
                    .data(Map.of(KEY, UsageRecordCodec.encode(record)));
            String what = "storing the usage of job " + record.job() + " in ConfigMap " + namespace + "/"
                    + name(record.job());
            KubernetesApiResponse<V1ConfigMap> updated = ApiCalls.call(what, () -> api.update(map));
            if (updated.getHttpStatusCode() == ApiCalls.NOT_FOUND) {
                ApiCalls.expect(ApiCalls.call(what, () -> api.create(map)), what);
            } else {
                ApiCalls.expect(updated, what);
            }
        }
    }

    @Override
    public boolean delete(JobId job) {
        String what = "deleting the usage record of job " + job;
        KubernetesApiResponse<V1ConfigMap> deleted = ApiCalls.call(what, () -> api.delete(namespace, name(job)));
        if (deleted.getHttpStatusCode() == ApiCalls.NOT_FOUND) {
            return false;
        }
        // a ConfigMap's delete answers with a Status, not the object: success is the answer
        if (!deleted.isSuccess()) {
            throw ApiCalls.failure(deleted, what);
        }
        return true;
    }
}
