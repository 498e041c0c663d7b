package io.quotient.app;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Who may call the service ({@code quotient.access.*}).
 *
 * @param mode     {@code auto} (default): Kubernetes checks on a cluster, open on the embedded demo; {@code kubernetes}:
 *                 bearer tokens by TokenReview, calls by SubjectAccessReview; {@code open}: anyone may do anything
 * @param cacheTtl how long a token's and an access decision's answer is reused (a revoked binding takes effect after
 *                 at most this long); 0 asks the API server on every call
 */
@Validated
@ConfigurationProperties("quotient.access")
public record AccessProperties(
        @NotNull @DefaultValue("auto") Mode mode,
        @NotNull @DefaultValue("10s") Duration cacheTtl) {

    public AccessProperties {
        SettingChecks.notNegative("quotient.access.cache-ttl", cacheTtl);
    }

    public enum Mode {
        AUTO,
        OPEN,
        KUBERNETES
    }
}
