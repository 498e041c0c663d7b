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
    void theModelDependsOnNothingAboveIt() {
        noClasses()
                .that()
                .resideInAPackage("io.quotient.core.model..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.quotient.core.scheduling..",
                        "io.quotient.core.request..",
                        "io.quotient.core.placement..",
                        "io.quotient.core.tenancy..",
                        "io.quotient.core.usage..")
                .because("ids, jobs, teams and demands are the vocabulary every other part speaks (docs/design.md)")
                .check(classes);
    }

    @Test
    void requestValidationKnowsOnlyTheModel() {
        noClasses()
                .that()
                .resideInAPackage("io.quotient.core.request..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.quotient.core.scheduling..", "io.quotient.core.placement..", "io.quotient.core.usage..")
                .because("a request is checked against the model alone, before any decision is made")
                .check(classes);
    }

    @Test
    void theEngineDoesNotReachBackIntoRequestParsing() {
        noClasses()
                .that()
                .resideInAPackage("io.quotient.core.scheduling..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.quotient.core.request..")
                .because("the engine decides on validated jobs (JobSpec), never on raw requests")
                .check(classes);
    }

    @Test
    void kubernetesRecordsAndLeadershipAreLeaves() {
        noClasses()
                .that()
                .resideInAnyPackage("io.quotient.adapters.k8s.records..", "io.quotient.adapters.k8s.leadership..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.quotient.adapters.k8s.workloads..",
                        "io.quotient.adapters.k8s.observation..",
                        "io.quotient.adapters.k8s.events..")
                .because("the job records and the leader lease are what the other roles build on (docs/design.md)")
                .check(classes);
    }

    @Test
    void kubernetesEventsOnlyKnowTheRecordsTheyAreAbout() {
        noClasses()
                .that()
                .resideInAPackage("io.quotient.adapters.k8s.events..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.quotient.adapters.k8s.workloads..", "io.quotient.adapters.k8s.observation..")
                .because("an Event is written about a job's record, not about how its workload runs")
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
