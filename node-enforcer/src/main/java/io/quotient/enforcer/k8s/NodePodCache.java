package io.quotient.enforcer.k8s;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.quotient.enforcer.core.PodDirectory;
import io.quotient.enforcer.core.PodInfo;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's pods, kept current by an informer that lists and watches with the field selector
 * {@code spec.nodeName=<node>}. Pods are converted once per change, so an enforcement cycle only reads a map.
 */
public final class NodePodCache implements PodDirectory, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodePodCache.class);

    private final Map<String, PodInfo> pods = new ConcurrentHashMap<>();
    private final SharedInformerFactory factory;
    private final SharedIndexInformer<V1Pod> informer;

    public NodePodCache(ApiClient client, String nodeName) {
        CoreV1Api api = new CoreV1Api(client);
        factory = new SharedInformerFactory(client);
        informer = factory.sharedIndexInformerFor(
                params -> api.listPodForAllNamespaces()
                        .fieldSelector("spec.nodeName=" + nodeName)
                        .resourceVersion(params.resourceVersion)
                        .watch(params.watch)
                        .timeoutSeconds(params.timeoutSeconds)
                        .buildCall(null),
                V1Pod.class,
                V1PodList.class);
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(V1Pod pod) {
                put(pod);
            }

            @Override
            public void onUpdate(V1Pod old, V1Pod pod) {
                put(pod);
            }

            @Override
            public void onDelete(V1Pod pod, boolean finalStateUnknown) {
                if (pod.getMetadata() != null && pod.getMetadata().getUid() != null) {
                    pods.remove(pod.getMetadata().getUid());
                }
            }
        });
    }

    public void start() {
        factory.startAllRegisteredInformers();
    }

    public boolean synced() {
        return informer.hasSynced();
    }

    @Override
    public Optional<PodInfo> byUid(String uid) {
        return Optional.ofNullable(pods.get(uid));
    }

    @Override
    public Collection<PodInfo> all() {
        return pods.values();
    }

    @Override
    public void close() {
        factory.stopAllRegisteredInformers();
    }

    private void put(V1Pod pod) {
        try {
            PodInfo info = PodInfoMapper.toPodInfo(pod);
            pods.put(info.uid(), info);
        } catch (RuntimeException e) {
            LOG.warn("Ignoring a pod the enforcer cannot read: {}", e.toString());
        }
    }
}
