package io.quotient.adapters.k8s;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AuthenticationV1Api;
import io.kubernetes.client.openapi.apis.AuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import io.kubernetes.client.openapi.models.V1SubjectAccessReview;
import io.kubernetes.client.openapi.models.V1SubjectAccessReviewSpec;
import io.kubernetes.client.openapi.models.V1SubjectAccessReviewStatus;
import io.kubernetes.client.openapi.models.V1TokenReview;
import io.kubernetes.client.openapi.models.V1TokenReviewSpec;
import io.kubernetes.client.openapi.models.V1TokenReviewStatus;
import io.kubernetes.client.openapi.models.V1UserInfo;
import io.quotient.access.AccessCheckUnavailableException;
import io.quotient.access.AccessDecision;
import io.quotient.access.AccessRequest;
import io.quotient.access.Authenticator;
import io.quotient.access.Authorizer;
import io.quotient.access.Caller;
import java.util.Optional;

/**
 * Callers checked by the API server itself: a bearer token by a TokenReview (service-account tokens, and whatever
 * else the cluster's authenticator accepts, e.g. OIDC tokens of Kubeflow users), and each call by a
 * SubjectAccessReview for that user and its groups, so RBAC bindings decide as they do for kubectl.
 */
public final class KubernetesAccessReview implements Authenticator, Authorizer {

    private final AuthenticationV1Api authentication;
    private final AuthorizationV1Api authorization;

    public KubernetesAccessReview(ApiClient client) {
        this.authentication = new AuthenticationV1Api(client);
        this.authorization = new AuthorizationV1Api(client);
    }

    @Override
    public Optional<Caller> authenticate(String bearerToken) {
        V1TokenReview review = new V1TokenReview().spec(new V1TokenReviewSpec().token(bearerToken));
        V1TokenReviewStatus status;
        try {
            status = authentication.createTokenReview(review).execute().getStatus();
        } catch (ApiException e) {
            throw new AccessCheckUnavailableException(
                    "the API server did not review the token: HTTP " + e.getCode() + " " + e.getResponseBody(), e);
        } catch (RuntimeException e) {
            throw new AccessCheckUnavailableException(
                    "the API server could not be reached to review the token: " + e, e);
        }
        if (status == null || !Boolean.TRUE.equals(status.getAuthenticated()) || status.getUser() == null) {
            return Optional.empty();
        }
        V1UserInfo user = status.getUser();
        return Optional.of(new Caller(user.getUsername(), user.getUid(), user.getGroups(), user.getExtra()));
    }

    @Override
    public AccessDecision authorize(Caller caller, AccessRequest request) {
        V1SubjectAccessReview review = new V1SubjectAccessReview()
                .spec(new V1SubjectAccessReviewSpec()
                        .user(caller.user())
                        .uid(caller.uid())
                        .groups(caller.groups())
                        .extra(caller.extra())
                        .resourceAttributes(new V1ResourceAttributes()
                                .verb(request.verb())
                                .group(request.group())
                                .resource(request.resource())
                                .namespace(request.namespace())
                                .name(request.name())));
        V1SubjectAccessReviewStatus status;
        try {
            status = authorization.createSubjectAccessReview(review).execute().getStatus();
        } catch (ApiException e) {
            throw new AccessCheckUnavailableException(
                    "the API server did not review access (" + request.describe() + "): HTTP " + e.getCode() + " "
                            + e.getResponseBody(),
                    e);
        } catch (RuntimeException e) {
            throw new AccessCheckUnavailableException(
                    "the API server could not be reached to review access (" + request.describe() + "): " + e, e);
        }
        boolean allowed = status != null && Boolean.TRUE.equals(status.getAllowed());
        String reason = status == null || status.getReason() == null ? "" : status.getReason();
        return allowed ? AccessDecision.ALLOWED : new AccessDecision(false, reason);
    }
}
