package io.quotient.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class InspectCommandTest {

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void rendersTeamsNodesGpusAndFragmentationAsTables() throws Exception {
        String text = InspectCommand.render(json.readTree("""
                [{"name":"team-a","guaranteedGpus":20.0,"maxGpus":null,"overQuotaWeight":1.0,"priority":0,
                  "allocatedGpus":30.0,"inQuotaGpus":20.0,"overQuotaGpus":10.0,"fairShareGpus":25.0,"pendingJobs":1}]"""),
                json.readTree("""
                {"totalGpus":10.0,"freeGpus":8.7,"wholeFreeGpus":8,"wholeFreeNodes":0,
                 "fragmentation":{"amountPercent":1.5,"ratioPercent":1.72,"fragmentedGpus":0.15},
                 "nodes":[{"name":"gpu-node-1","gpuModel":"A100","gpuMemoryMib":81920,"gpuCount":10,
                   "fractionReady":true,"freeGpus":8.7,"fragmentedGpus":0.15,"gpus":[
                     {"index":0,"uuid":null,"free":0.0,"jobs":[{"team":"team-a","name":"big","share":1.0}]},
                     {"index":1,"uuid":"GPU-1","free":0.7,"jobs":[{"team":"team-b","name":"nb","share":0.3}]}]}]}
                """));

        assertThat(text).contains("TEAMS", "NODES", "GPUS");
        assertThat(text).containsPattern("team-a\\s+20\\s+-\\s+1.0\\s+25\\s+30\\s+20\\s+10\\s+1");
        assertThat(text).containsPattern("gpu-node-1\\s+A100\\s+10\\s+8.7\\s+0.15\\s+ready");
        assertThat(text).containsPattern("gpu-node-1\\s+1\\s+0.7\\s+GPU-1\\s+team-b/nb \\(0.3\\)");
        assertThat(text).contains("FRAGMENTATION  1.50 % of all GPUs, 1.72 % of the free GPUs");
    }

    @Test
    void explainsWhenTheServiceIsNotReachable() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new InspectCommand(new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true,
                StandardCharsets.UTF_8)).run(new String[]{"--url=http://127.0.0.1:9"});

        assertThat(code).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("cannot reach the Quotient service at http://127.0.0.1:9");
    }

    @Test
    void asksTheServiceForTeamsAndClusterAndPrintsThem() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        answer(server, "/api/v1/teams", "[{\"name\":\"team-a\",\"guaranteedGpus\":2.5,\"maxGpus\":4.0,"
                + "\"overQuotaWeight\":1.0,\"allocatedGpus\":3.0,\"inQuotaGpus\":2.5,\"overQuotaGpus\":0.5,\"pendingJobs\":0}]");
        answer(server, "/api/v1/cluster", "{\"totalGpus\":8.0,\"freeGpus\":5.0,\"wholeFreeGpus\":5,\"wholeFreeNodes\":0,"
                + "\"fragmentation\":{\"amountPercent\":0.0,\"ratioPercent\":0.0},\"nodes\":[]}");
        server.start();
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int code = new InspectCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(new ByteArrayOutputStream())).run(new String[]{"--url",
                    "http://127.0.0.1:" + server.getAddress().getPort() + "/"});

            assertThat(code).isZero();
            assertThat(out.toString(StandardCharsets.UTF_8)).containsPattern("team-a\\s+2.5\\s+4\\s+1.0\\s+-\\s+3\\s+2.5\\s+0.5")
                    .contains("CLUSTER  8 GPUs, 5 free (5 whole GPUs, 0 whole nodes free)");
        } finally {
            server.stop(0);
        }
    }

    private static void answer(HttpServer server, String path, String body) {
        server.createContext(path, exchange -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
    }

    @Test
    void printsHelpAndRejectsUnknownOptions() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        InspectCommand command = new InspectCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(command.run(new String[]{"--help"})).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("--url=URL");
        assertThat(command.run(new String[]{"--bogus"})).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown option '--bogus'");
    }
}
