package io.quotient.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotient.app.QuotientCli;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@code inspect}: shows a running service's teams, nodes and GPUs, and fragmentation as tables. */
public final class InspectCommand implements QuotientCli.Command {

    static final String HELP = """
            Usage: java -jar quotient.jar inspect [--url=http://localhost:8080] [--token=TOKEN]

            Asks a running Quotient service (GET /api/v1/teams and /api/v1/cluster) and prints
            the teams' quotas and use, the nodes with their free and fragmented GPUs, each GPU
            with the jobs sharing it, and the cluster's fragmentation. It needs the service:
            start one with 'java -jar quotient.jar serve' (an embedded demo cluster when no
            Kubernetes is configured) or point --url at a deployed one.

            Options:
              --url=URL     the service's base URL (default http://localhost:8080); also --url URL
              --token=TOKEN bearer token for a service in a cluster (default: $QUOTIENT_TOKEN), e.g.
                            $(kubectl create token <service-account> -n <team namespace>)
              --help        this text

            Exit status: 0 printed, 1 the service could not be reached or answered an error,
            2 bad options.
            """;
    private static final String DEFAULT_URL = "http://localhost:8080";

    private final ObjectMapper json = new ObjectMapper();
    /** Sent as {@code Authorization: Bearer} when set: a service in a cluster checks callers. */
    private String token = System.getenv("QUOTIENT_TOKEN");
    private final PrintStream out;
    private final PrintStream err;

    public InspectCommand() {
        this(System.out, System.err);
    }

    InspectCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public int run(String[] args) {
        String url = DEFAULT_URL;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--help") || arg.equals("-h")) {
                out.println(HELP);
                return 0;
            } else if (arg.startsWith("--url=")) {
                url = arg.substring("--url=".length()).replaceAll("/+$", "");
            } else if (arg.startsWith("--token=")) {
                token = arg.substring("--token=".length());
            } else if (arg.equals("--url") && i + 1 < args.length) {
                url = args[++i].replaceAll("/+$", "");
            } else {
                err.println("inspect: unknown option '" + arg + "'\n" + HELP);
                return 2;
            }
        }
        try {
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            JsonNode teams = get(client, url + "/api/v1/teams");
            JsonNode cluster = get(client, url + "/api/v1/cluster");
            out.print(render(teams, cluster));
            return 0;
        } catch (IOException e) {
            err.println("inspect: cannot reach the Quotient service at " + url + " (" + e.getMessage()
                    + "). Start it with 'java -jar quotient.jar serve' or pass --url=...");
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    @Override
    public String summary() {
        return "show a running service's teams, GPUs and fragmentation as tables";
    }

    /** The whole report for the two API answers. */
    static String render(JsonNode teams, JsonNode cluster) {
        TextTable teamTable = new TextTable("TEAM", "GUARANTEED", "MAX", "WEIGHT", "FAIR SHARE", "ALLOCATED", "IN QUOTA",
                "BORROWED", "PENDING");
        teams.forEach(t -> teamTable.row(t.path("name").asText(), gpus(t.path("guaranteedGpus")),
                t.path("maxGpus").isNull() ? "-" : gpus(t.path("maxGpus")), t.path("overQuotaWeight").asDouble(),
                t.path("fairShareGpus").isMissingNode() ? "-" : gpus(t.path("fairShareGpus")),
                gpus(t.path("allocatedGpus")), gpus(t.path("inQuotaGpus")), gpus(t.path("overQuotaGpus")),
                t.path("pendingJobs").asInt()));
        TextTable nodeTable = new TextTable("NODE", "MODEL", "GPUS", "FREE", "FRAGMENTED", "FRACTIONS");
        TextTable gpuTable = new TextTable("NODE", "GPU", "FREE", "UUID", "JOBS");
        for (JsonNode n : cluster.path("nodes")) {
            nodeTable.row(n.path("name").asText(), n.path("gpuModel").asText(), n.path("gpuCount").asInt(),
                    gpus(n.path("freeGpus")), gpus(n.path("fragmentedGpus")),
                    n.path("fractionReady").asBoolean() ? "ready" : "not ready");
            for (JsonNode g : n.path("gpus")) {
                List<String> jobs = new ArrayList<>();
                g.path("jobs").forEach(j -> jobs.add(j.path("team").asText() + "/" + j.path("name").asText() + " ("
                        + gpus(j.path("share")) + ")"));
                gpuTable.row(n.path("name").asText(), g.path("index").asInt(), gpus(g.path("free")),
                        g.path("uuid").isNull() || g.path("uuid").isMissingNode() ? "-" : g.path("uuid").asText(),
                        jobs.isEmpty() ? "-" : String.join(", ", jobs));
            }
        }
        JsonNode f = cluster.path("fragmentation");
        return "TEAMS\n" + teamTable.render() + "\nNODES\n" + nodeTable.render() + "\nGPUS\n" + gpuTable.render()
                + String.format(Locale.ROOT, "%nCLUSTER  %s GPUs, %s free (%d whole GPUs, %d whole nodes free)%n"
                        + "FRAGMENTATION  %.2f %% of all GPUs, %.2f %% of the free GPUs are stranded"
                        + " for the expected job shapes%n",
                gpus(cluster.path("totalGpus")), gpus(cluster.path("freeGpus")), cluster.path("wholeFreeGpus").asInt(),
                cluster.path("wholeFreeNodes").asInt(), f.path("amountPercent").asDouble(),
                f.path("ratioPercent").asDouble());
    }

    private JsonNode get(HttpClient client, String url) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .header("Accept", "application/json");
        if (token != null && !token.isBlank()) {
            request.header("Authorization", "Bearer " + token.trim());
        }
        HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + url + " answered " + response.statusCode() + ": " + response.body());
        }
        return json.readTree(response.body());
    }

    /** GPU amounts without a useless ".0". */
    private static String gpus(JsonNode value) {
        double v = value.asDouble();
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "");
    }
}
