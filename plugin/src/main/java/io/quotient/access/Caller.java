package io.quotient.access;

import java.util.List;
import java.util.Map;

/**
 * An authenticated caller as the cluster knows it (a TokenReview's user): passed back unchanged to authorization.
 *
 * @param extra the authenticator's extra attributes (scopes, OIDC claims), needed for an exact access review
 */
public record Caller(String user, String uid, List<String> groups, Map<String, List<String>> extra) {

    public Caller {
        groups = groups == null ? List.of() : List.copyOf(groups);
        extra = extra == null ? Map.of() : Map.copyOf(extra);
    }
}
