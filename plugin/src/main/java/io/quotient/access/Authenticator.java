package io.quotient.access;

import java.util.Optional;

/** Who presents a bearer token (Kubernetes: a TokenReview, so that whatever the cluster accepts works here). */
public interface Authenticator {

    /**
     * @return the caller, or empty when the token is not valid (expired, revoked, unknown)
     * @throws AccessCheckUnavailableException when the check itself could not be made
     */
    Optional<Caller> authenticate(String bearerToken);
}
