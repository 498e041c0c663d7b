package io.quotient.app;

import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Selects the configuration of one {@link ClusterMode}: annotate it with
 * {@code @Conditional(ClusterModeCondition.Embedded.class)} or {@code @Conditional(ClusterModeCondition.Kubernetes.class)}.
 * The selected configuration provides the ports: JobRecordStore, ClusterObserver, WorkloadGateway,
 * LeadershipGate and a {@link ClusterDefaultTeams}.
 */
public abstract class ClusterModeCondition implements Condition {

    private final ClusterMode mode;

    ClusterModeCondition(ClusterMode mode) {
        this.mode = mode;
    }

    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
        return ClusterMode.resolve(context.getEnvironment()) == mode;
    }

    /** Matches when the service runs on the embedded in-memory cluster. */
    public static final class Embedded extends ClusterModeCondition {
        public Embedded() {
            super(ClusterMode.EMBEDDED);
        }
    }

    /** Matches when the service runs against a Kubernetes cluster. */
    public static final class Kubernetes extends ClusterModeCondition {
        public Kubernetes() {
            super(ClusterMode.KUBERNETES);
        }
    }
}
