package io.quotient.it.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The soak's plane faults: {@code bin/control-plane restart} kills (or stops) the API server or etcd and starts it
 * again with the same flags and data; the shared plane answers again, with what it held before, under a new PID.
 */
@RealKubernetes
class ComponentRestartIT {

    @Test
    void theApiServerAndEtcdComeBackWithTheirDataAfterARestart(ControlPlane plane, TestNamespace namespace)
            throws Exception {
        CoreV1Api api = new CoreV1Api(plane.apiClient());
        api.createNamespacedConfigMap(
                        namespace.name(),
                        new V1ConfigMap()
                                .metadata(new V1ObjectMeta().name("kept"))
                                .data(Map.of("before", "restart")))
                .execute();

        long apiServer = plane.restart(PlaneComponent.API_SERVER, true);
        assertThat(read(api, namespace)).isEqualTo("restart");
        long etcd = plane.restart(PlaneComponent.ETCD, false);
        assertThat(read(api, namespace)).isEqualTo("restart");
        long etcdAgain = plane.restart(PlaneComponent.ETCD, true);
        long apiServerAgain = plane.restart(PlaneComponent.API_SERVER, false);

        assertThat(etcdAgain).isNotEqualTo(etcd);
        assertThat(apiServerAgain).isNotEqualTo(apiServer);
        assertThat(read(api, namespace)).isEqualTo("restart");
        api.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name("after")))
                .execute();
    }

    /** The kept ConfigMap's value, once the API server answers again (its clients' pooled connections were reset). */
    private static String read(CoreV1Api api, TestNamespace namespace) {
        return Await.until(
                "the ConfigMap written before the restart",
                () -> api.readNamespacedConfigMap("kept", namespace.name())
                        .execute()
                        .getData()
                        .get("before"));
    }
}
