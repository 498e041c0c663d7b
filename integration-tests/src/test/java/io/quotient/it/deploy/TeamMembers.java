package io.quotient.it.deploy;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.credentials.AccessTokenAuthentication;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Team members as the cluster knows them: a service account bound to the ClusterRole quotient-team-member in a
 * namespace (deploy/20-rbac.yaml must be applied), with its token from the token Secret the 1.20 controller makes.
 */
final class TeamMembers {

    private TeamMembers() {}

    /** Creates the service account and its RoleBinding; returns its bearer token. */
    static String token(ApiClient admin, String namespace, String name) throws Exception {
        CoreV1Api core = new CoreV1Api(admin);
        core.createNamespacedServiceAccount(namespace, new V1ServiceAccount().metadata(new V1ObjectMeta().name(name)))
                .execute();
        new RbacAuthorizationV1Api(admin)
                .createNamespacedRoleBinding(
                        namespace,
                        new V1RoleBinding()
                                .metadata(new V1ObjectMeta().name(name + "-quotient"))
                                .roleRef(new V1RoleRef()
                                        .apiGroup("rbac.authorization.k8s.io")
                                        .kind("ClusterRole")
                                        .name("quotient-team-member"))
                                .subjects(List.of(new RbacV1Subject()
                                        .kind("ServiceAccount")
                                        .name(name)
                                        .namespace(namespace))))
                .execute();
        V1ServiceAccount account = Await.until(
                "the token secret of service account " + name,
                () -> core.readNamespacedServiceAccount(name, namespace).execute(),
                sa -> sa.getSecrets() != null && !sa.getSecrets().isEmpty());
        V1Secret secret = core.readNamespacedSecret(account.getSecrets().get(0).getName(), namespace)
                .execute();
        return new String(secret.getData().get("token"), StandardCharsets.UTF_8);
    }

    /** A client of the test plane that authenticates with the token only (as kubectl with that user would). */
    static ApiClient client(ControlPlane plane, String token) {
        return new ClientBuilder()
                .setBasePath(plane.apiClient().getBasePath())
                .setVerifyingSsl(false)
                .setAuthentication(new AccessTokenAuthentication(token))
                .build();
    }
}
