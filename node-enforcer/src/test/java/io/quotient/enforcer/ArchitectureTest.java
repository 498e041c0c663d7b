package io.quotient.enforcer;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The enforcer's policy core stays pure: the kill decisions are tested on recorded samples, so the core may not
 * reach NVML (JNA), /proc, the API server, gRPC or Spring; those adapters feed it and carry out its plan.
 */
class ArchitectureTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.quotient.enforcer");
    }

    @Test
    void theCoreImportsNoFrameworkOrNativeBinding() {
        noClasses()
                .that()
                .resideInAPackage("io.quotient.enforcer.core..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.kubernetes..", "org.springframework..", "com.sun.jna..", "io.grpc..", "io.micrometer..")
                .because("the kill policy is a pure function of a node snapshot (docs/design.md)")
                .check(classes);
    }

    @Test
    void theCoreDependsOnNoAdapter() {
        noClasses()
                .that()
                .resideInAPackage("io.quotient.enforcer.core..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.quotient.enforcer.nvml..",
                        "io.quotient.enforcer.proc..",
                        "io.quotient.enforcer.k8s..",
                        "io.quotient.enforcer.app..")
                .because("adapters depend on the core, never the other way round")
                .check(classes);
    }
}
