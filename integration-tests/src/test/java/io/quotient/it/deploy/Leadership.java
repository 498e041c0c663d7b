package io.quotient.it.deploy;

import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import java.util.Map;

/** Which service process leads, as the Lease says and as the service itself says (its quotient_leader gauge). */
final class Leadership {

    private Leadership() {}

    /** The identity holding the Lease {@code quotient-leader} (waits until someone does). */
    static String leaseHolder(ControlPlane plane, String namespace) {
        CoordinationV1Api coordination = new CoordinationV1Api(plane.apiClient());
        return Await.until(
                "a holder of the Lease",
                () -> coordination
                        .readNamespacedLease("quotient-leader", namespace)
                        .execute()
                        .getSpec()
                        .getHolderIdentity());
    }

    /**
     * Waits until {@code service} holds the Lease and knows it: the Lease is written a moment before the service's
     * gate opens, and a deploy in between is only recorded (202), not decided.
     */
    static void awaitLeading(ControlPlane plane, String namespace, QuotientService service) {
        Await.until(service.name() + " to hold the Lease", () -> leaseHolder(plane, namespace), service.name()::equals);
        Await.until(
                service.name() + " to decide as the leader",
                () -> new PrometheusSamples(service.api().prometheus()).value("quotient_leader", Map.of()),
                leading -> leading == 1);
    }
}
