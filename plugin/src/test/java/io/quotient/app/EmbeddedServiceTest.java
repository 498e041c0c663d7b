package io.quotient.app;

import java.io.IOException;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The whole service on the embedded 4 × 10-GPU cluster, reached over real HTTP on a random port ({@link RawHttp}),
 * with the teams of the HTTP tests: one teams file for them all, so that the classes that add no beans of their own
 * share one started service. Each class uses its own teams, so that what one records never shows in another's lists.
 */
@SpringBootTest(
        classes = QuotientApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "quotient.cluster.mode=embedded")
abstract class EmbeddedServiceTest {

    /** cs, capped and probe: HostileNegotiationTest; neg and located: HttpContractTest; team-a, team-b: access. */
    private static final String TEAMS = "teams:\n"
            + "  - name: cs\n    guaranteedGpus: 4\n"
            + "  - name: capped\n    guaranteedGpus: 2\n    maxGpus: 2\n"
            + "  - name: probe\n    guaranteedGpus: 4\n"
            + "  - name: neg\n    guaranteedGpus: 4\n"
            + "  - name: located\n    guaranteedGpus: 4\n"
            + "  - name: team-a\n    guaranteedGpus: 4\n"
            + "  - name: team-b\n    guaranteedGpus: 4\n";

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void teams(DynamicPropertyRegistry registry) throws IOException {
        TestTeamsFile.register(registry, TEAMS);
    }

    /** A client of this service that sends requests exactly as written. */
    RawHttp http() {
        return new RawHttp(port);
    }
}
