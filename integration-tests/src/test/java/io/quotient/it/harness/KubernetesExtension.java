package io.quotient.it.harness;

import io.kubernetes.client.openapi.ApiClient;
import java.util.Set;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension behind {@link RealKubernetes}. Resolves parameters of test methods, {@code @BeforeEach}
 * and {@code @AfterEach} methods (one instance per test, shared between them):
 * <ul>
 *   <li>{@link ControlPlane}, {@link ApiClient} and {@link FakeKubelet}: the JVM's shared control plane,
 *       its client and the fake kubelet that serves every fake node (also in constructors and
 *       {@code @BeforeAll} methods);</li>
 *   <li>{@link TestNamespace}: a fresh namespace, deleted after the test;</li>
 *   <li>{@link FakeGpuNodes}: makes fake GPU nodes with unique names, deleted after the test.</li>
 * </ul>
 */
public final class KubernetesExtension implements ParameterResolver, AfterEachCallback {

    private static final ExtensionContext.Namespace STORE =
            ExtensionContext.Namespace.create(KubernetesExtension.class);
    private static final Set<Class<?>> SHARED = Set.of(ControlPlane.class, ApiClient.class, FakeKubelet.class);
    private static final Set<Class<?>> PER_TEST = Set.of(TestNamespace.class, FakeGpuNodes.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return SHARED.contains(type) || PER_TEST.contains(type);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        ControlPlane controlPlane = ControlPlane.shared();
        if (type == ControlPlane.class) {
            return controlPlane;
        }
        if (type == ApiClient.class) {
            return controlPlane.apiClient();
        }
        if (type == FakeKubelet.class) {
            return controlPlane.fakeKubelet();
        }
        if (context.getTestMethod().isEmpty()) {
            throw new ParameterResolutionException(type.getSimpleName() + " is made per test method; ask for it in a "
                    + "test, @BeforeEach or @AfterEach method, not in " + parameter.getDeclaringExecutable());
        }
        KubernetesTestSession session = context.getStore(STORE)
                .getOrComputeIfAbsent(
                        KubernetesTestSession.class,
                        key -> new KubernetesTestSession(
                                controlPlane, context.getRequiredTestMethod().getName()),
                        KubernetesTestSession.class);
        return type == TestNamespace.class ? session.namespace() : session.nodes();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        KubernetesTestSession session =
                context.getStore(STORE).remove(KubernetesTestSession.class, KubernetesTestSession.class);
        if (session != null) {
            session.close();
        }
    }
}
