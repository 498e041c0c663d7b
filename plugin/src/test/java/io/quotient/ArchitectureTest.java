package io.quotient;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The scheduling core stays pure (docs/design.md): no Kubernetes, Spring, Quartz or JNA, and no adapter, wiring or
 * application-layer code, so that it can be tested and reasoned about on snapshots alone.
 */
class ArchitectureTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.quotient");
    }

    @Test
    void theCoreImportsNoFramework() {
        noClasses()
                .that()
                .resideInAPackage("io.quotient.core..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.kubernetes..", "org.springframework..", "org.quartz..", "com.sun.jna..")
                .because("the core is pure functions over snapshots (docs/design.md)")
                .check(classes);
    }

    @Test
    void theCoreDependsOnNoAdapterWiringOrApplicationLayer() {
        noClasses()
                .that()
                .resideInAPackage("io.quotient.core..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.quotient.adapters..", "io.quotient.app..", "io.quotient.deploy..", "io.quotient.sim..")
                .because("adapters depend on the core, never the other way round")
                .check(classes);
    }

    @Test
    void theReplayImportsNoFrameworkNorTheServicesWiring() {
        noClasses()
                .that()
                .resideInAPackage("io.quotient.replay..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.kubernetes..",
                        "org.springframework..",
                        "org.quartz..",
                        "com.sun.jna..",
                        "io.quotient.app..",
                        "io.quotient.deploy..",
                        "io.quotient.adapters..")
                .because("the replay drives the pure core in simulated time; the command line reads its files")
                .check(classes);
    }

    @Test
    void theUseCasesImportNoAdapter() {
        noClasses()
                .that()
                .resideInAPackage("io.quotient.deploy..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.quotient.adapters..")
                .because("the use cases meet Kubernetes, REST and memory through their ports (deploy.port)")
                .check(classes);
    }

    @Test
    void theWiringDoesNotDependOnTheCommandLine() {
        noClasses()
                .that()
                .resideInAPackage("io.quotient.app")
                .or()
                .resideInAPackage("io.quotient.app.schedule..")
                .or()
                .resideInAPackage("io.quotient.app.kubernetes..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.quotient.app.cli..")
                .because("the command line starts the wiring, never the other way round (no app <-> app.cli cycle)")
                .check(classes);
    }
}
