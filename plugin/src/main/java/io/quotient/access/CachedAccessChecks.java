package io.quotient.access;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;

/**
 * An authenticator and an authorizer whose answers are remembered for a short time (default 10 s), so that the
 * deploy rate does not become the rate of TokenReviews and SubjectAccessReviews. Refusals are remembered too, so a
 * client retrying a bad token does not flood the API server. Tokens are kept only as SHA-256 digests.
 */
public final class CachedAccessChecks implements Authenticator, Authorizer {

    private static final int MAX_ENTRIES = 10_000;

    private final Authenticator authenticator;
    private final Authorizer authorizer;
    private final ExpiringCache<String, Optional<Caller>> callers;
    private final ExpiringCache<Question, AccessDecision> decisions;

    private record Question(Caller caller, AccessRequest request) {}

    public CachedAccessChecks(Authenticator authenticator, Authorizer authorizer, Duration ttl, Clock clock) {
        this.authenticator = authenticator;
        this.authorizer = authorizer;
        this.callers = new ExpiringCache<>(ttl, MAX_ENTRIES, clock);
        this.decisions = new ExpiringCache<>(ttl, MAX_ENTRIES, clock);
    }

    @Override
    public Optional<Caller> authenticate(String bearerToken) {
        return callers.get(digest(bearerToken), key -> authenticator.authenticate(bearerToken));
    }

    @Override
    public AccessDecision authorize(Caller caller, AccessRequest request) {
        return decisions.get(new Question(caller, request), q -> authorizer.authorize(q.caller(), q.request()));
    }

    private static String digest(String token) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
