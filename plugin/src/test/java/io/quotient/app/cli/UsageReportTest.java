package io.quotient.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code inspect usage}: the showback rows of {@code GET /api/v1/usage} as a table, and the query it sends. */
class UsageReportTest {

    /** One answer of GET /api/v1/usage?groupBy=team: a team in a department that used a quarter, one unmeasured. */
    static final String USAGE = """
            [{"department":"research","team":"vision","job":null,"allocatedGpuHours":48.0,"inQuotaGpuHours":40.0,
              "borrowedGpuHours":8.0,"usedGpuHours":12.0,"idleGpuHours":36.0,"unmeasuredGpuHours":0.0,
              "utilization":0.25,"reservedMemoryGibHours":3840.0,"usedMemoryGibHours":960.0},
             {"department":null,"team":"nlp","job":null,"allocatedGpuHours":2.5,"inQuotaGpuHours":2.5,
              "borrowedGpuHours":0.0,"usedGpuHours":0.0,"idleGpuHours":0.0,"unmeasuredGpuHours":2.5,
              "utilization":null,"reservedMemoryGibHours":200.0,"usedMemoryGibHours":0.0}]
            """;

    private StubService server;

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void rendersOneLinePerGroupWithTheGpuHours() throws Exception {
        String text = UsageReport.render(new ObjectMapper().readTree(USAGE));

        assertThat(text)
                .containsPattern("DEPARTMENT\\s+TEAM\\s+ALLOCATED\\s+IN QUOTA\\s+BORROWED\\s+USED\\s+IDLE"
                        + "\\s+UNMEASURED\\s+UTILIZATION")
                .containsPattern("research\\s+vision\\s+48.00\\s+40.00\\s+8.00\\s+12.00\\s+36.00\\s+0.00\\s+25.0 %")
                .containsPattern("-\\s+nlp\\s+2.50\\s+2.50\\s+0.00\\s+0.00\\s+0.00\\s+2.50\\s+-")
                .doesNotContain("JOB");
        assertThat(UsageReport.render(new ObjectMapper().readTree("[]"))).contains("nothing was allocated");
    }

    @Test
    void asksTheServiceForTheDaysAndGroupingGiven() throws Exception {
        String url = serve(200, USAGE);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = new InspectCommand(new PrintStream(out, true, StandardCharsets.UTF_8), System.err)
                .run(new String[] {"usage", "--url=" + url, "--from=2026-12-01", "--to", "2026-12-02", "--group-by=team"
                });

        assertThat(code).isZero();
        assertThat(server.requests().stream().map(StubService.Request::query))
                .containsExactly("from=2026-12-01&to=2026-12-02&groupBy=team");
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("GPU USAGE").containsPattern("vision\\s+48.00");
    }

    @Test
    void rowsOverTimeStartWithTheirBucket() throws Exception {
        String text = UsageReport.render(new ObjectMapper()
                .readTree("[{\"department\":null,\"team\":\"nlp\",\"job\":null,\"allocatedGpuHours\":2.0,"
                        + "\"inQuotaGpuHours\":2.0,\"borrowedGpuHours\":0.0,\"usedGpuHours\":0.5,\"idleGpuHours\":1.5,"
                        + "\"unmeasuredGpuHours\":0.0,\"utilization\":0.25,\"bucket\":\"2026-12-03T09:00:00Z\"}]"));

        assertThat(text)
                .containsPattern("BUCKET\\s+TEAM\\s+ALLOCATED")
                .containsPattern("2026-12-03T09:00:00Z\\s+nlp\\s+2.00\\s+2.00\\s+0.00\\s+0.50\\s+1.50");
    }

    @Test
    void theBucketOptionIsSentAsTheApisBucket() throws Exception {
        String url = serve(200, "[]");
        int code = new InspectCommand(new PrintStream(new ByteArrayOutputStream()), System.err)
                .run(new String[] {"usage", "--url=" + url, "--from=2026-12-01", "--bucket=hour"});

        assertThat(code).isZero();
        assertThat(server.requests().stream().map(StubService.Request::query))
                .containsExactly("from=2026-12-01&bucket=hour");
    }

    @Test
    void reportsTheServicesRefusalAndRejectsUsageOptionsOnTheDashboard() throws Exception {
        String url = serve(400, "{\"error\":\"invalid request\",\"field\":\"groupBy\"}");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        InspectCommand command = new InspectCommand(
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(command.run(new String[] {"usage", "--url=" + url, "--group-by=node"}))
                .isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("answered 400", "\"field\":\"groupBy\"");
        assertThat(command.run(new String[] {"--url=" + url, "--from=2026-12-01"}))
                .as("the dashboard has no days")
                .isEqualTo(2);
    }

    private String serve(int status, String body) throws Exception {
        server = StubService.answering("/api/v1/usage", status, body);
        return server.url();
    }
}
