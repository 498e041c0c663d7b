package io.quotient.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class InspectCommandTest {

    /** One answer of GET /api/v1/dashboard: team-a borrows, team-b shares a GPU, one job waits. */
    static final String DASHBOARD = """
            {"at":"2026-11-25T06:00:00Z",
             "teams":[
               {"name":"team-a","guaranteedGpus":20.0,"maxGpus":null,"overQuotaWeight":1.0,"priority":0,
                "allocatedGpus":21.0,"inQuotaGpus":20.0,"overQuotaGpus":1.0,"pendingJobs":1,"fairShareGpus":24.5,
                "decayedUsageGpus":2.5,"overQuotaShareGpus":4.5,"usageHalfLife":"PT12H"},
               {"name":"team-b","guaranteedGpus":20.0,"maxGpus":30.0,"overQuotaWeight":2.0,"priority":0,
                "allocatedGpus":0.3,"inQuotaGpus":0.3,"overQuotaGpus":0.0,"pendingJobs":0,"usageHalfLife":null}],
             "cluster":{"totalGpus":3.0,"freeGpus":0.7,"wholeFreeGpus":0,"wholeFreeNodes":0,
               "fragmentation":{"amountPercent":1.5,"ratioPercent":1.72,"fragmentedGpus":0.15},
               "nodes":[{"name":"gpu-node-1","gpuModel":"A100","gpuMemoryMib":81920,"gpuCount":3,
                 "fractionReady":true,"freeGpus":0.7,"fragmentedGpus":0.15,"gpus":[
                   {"index":0,"uuid":null,"free":0.0,"jobs":[{"team":"team-a","name":"big","share":1.0}]},
                   {"index":1,"uuid":null,"free":0.0,"jobs":[{"team":"team-a","name":"extra","share":1.0}]},
                   {"index":2,"uuid":"GPU-1","free":0.7,"jobs":[{"team":"team-b","name":"nb","share":0.3}]}]}]},
             "placed":{"team-a/big":{"quotaState":"InQuota","limitPerGpu":null},
                       "team-a/extra":{"quotaState":"OverQuota","limitPerGpu":null},
                       "team-b/nb":{"quotaState":"InQuota","limitPerGpu":0.5}},
             "pending":[{"team":"team-a","name":"wait","phase":"Pending","gpus":4.0,
                         "reason":"team-a is at its maxGpus 24","createdAt":"2026-11-25T05:59:00Z"}],
             "recent":[{"team":"team-a","job":"wait","reason":"Pending","message":"no room","at":"2026-11-25T05:59:01Z"},
                       {"team":"team-a","job":"old","reason":"Preempted","message":"Preempted by team-b reclaiming",
                        "at":"2026-11-25T05:59:02Z"}]}
            """;

    private final ObjectMapper json = new ObjectMapper();
    private StubService server;

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void rendersTeamsWithFairShareTheGpuMapSharesPendingReasonsAndEvents() throws Exception {
        String text = InspectReport.render(json.readTree(DASHBOARD));

        assertThat(text)
                .containsPattern("team-a\\s+20\\s+24.5\\s+-\\s+1.0\\s+20\\s+1\\s+4\\s+1\\s+2.5\\s+4.5")
                .containsPattern("team-b\\s+20\\s+-\\s+30\\s+2.0\\s+0.3\\s+0\\s+0\\s+0\\s+instantaneous\\s+-")
                .contains("A team-a, B team-b")
                .containsPattern("gpu-node-1\\s+A100\\s+0.7\\s+0.15\\s+ready\\s+\\[A A\\*b \\]")
                .containsPattern(
                        "gpu-node-1\\s+2\\s+0.7\\s+GPU-1\\s+team-b/nb \\(0.3, 24576 MiB, up to 0.5: 16384 MiB loaned\\)")
                .containsPattern("team-a\\s+wait\\s+4\\s+Pending\\s+team-a is at its maxGpus 24")
                .containsPattern("05:59:02\\s+Preempted\\s+team-a/old\\s+Preempted by team-b reclaiming")
                .doesNotContain("no room")
                .contains("FRAGMENTATION  1.50 % of all GPUs, 1.72 % of the free GPUs");
    }

    @Test
    void explainsWhenTheServiceIsNotReachable() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new InspectCommand(
                        new PrintStream(new ByteArrayOutputStream()),
                        new PrintStream(err, true, StandardCharsets.UTF_8))
                .run(new String[] {"--url=http://127.0.0.1:9"});

        assertThat(code).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("cannot reach the Quotient service at http://127.0.0.1:9");
    }

    @Test
    void asksTheDashboardViewWithTheTokenAndPrintsIt() throws Exception {
        String url = serve(200, DASHBOARD);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = new InspectCommand(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(new ByteArrayOutputStream()),
                        "from-env",
                        1)
                .run(new String[] {"--url", url + "/"});

        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("TEAMS", "GPU MAP", "PENDING", "RECENT EVENTS")
                .contains("CLUSTER  3 GPUs, 0.7 free (0 whole GPUs, 0 whole nodes free)");
        assertThat(authorizations()).containsExactly("Bearer from-env");
    }

    @Test
    void watchRedrawsAndJsonPrintsOneDocumentPerRefresh() throws Exception {
        String url = serve(200, DASHBOARD);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InspectCommand command = new InspectCommand(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream()),
                null,
                3);

        assertThat(command.run(new String[] {"--url=" + url, "--watch=0.1", "-o", "json", "--token=abc"}))
                .isZero();

        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(3);
        for (String line : lines) {
            assertThat(json.readTree(line)
                            .path("teams")
                            .get(0)
                            .path("fairShareGpus")
                            .asDouble())
                    .isEqualTo(24.5);
        }
        assertThat(authorizations()).containsOnly("Bearer abc").hasSize(3);

        out.reset();
        assertThat(command.run(new String[] {"--url=" + url, "--watch=0.1"})).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).split("\033\\[H\033\\[2J", -1))
                .hasSize(4);
    }

    @Test
    void refusalsSayWhatToDo() throws Exception {
        String url = serve(401, "{}");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new InspectCommand(
                        new PrintStream(new ByteArrayOutputStream()),
                        new PrintStream(err, true, StandardCharsets.UTF_8))
                .run(new String[] {"--url=" + url});

        assertThat(code).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("asks for authentication (401)", "pass --token=TOKEN or set QUOTIENT_TOKEN");
    }

    @Test
    void printsHelpAndRejectsBadOptions() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        InspectCommand command = new InspectCommand(
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(command.run(new String[] {"--help"})).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("--url=URL", "--watch[=SECONDS]", "-o, --output");
        assertThat(command.run(new String[] {"--bogus"})).isEqualTo(2);
        assertThat(command.run(new String[] {"--watch=0"})).isEqualTo(2);
        assertThat(command.run(new String[] {"-o", "yaml"})).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains(
                        "unknown option '--bogus'",
                        "--watch takes seconds between 0.1 and 3600, was '0'",
                        "-o takes table or json, was 'yaml'");
    }

    private String serve(int status, String body) throws Exception {
        server = StubService.answering("/api/v1/dashboard", status, body);
        return server.url();
    }

    private List<String> authorizations() {
        return server.requests().stream()
                .map(StubService.Request::authorization)
                .filter(a -> a != null)
                .toList();
    }
}
