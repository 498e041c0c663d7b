package io.quotient.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code inspect}: the dashboard's views of a running service in a terminal (teams with fair share, the GPU map,
 * pending jobs with reasons, recent events), once or refreshed with {@code --watch}, as tables or JSON; and
 * {@code inspect usage}: the showback table of {@code GET /api/v1/usage}.
 */
public final class InspectCommand implements CliCommand {

    static final String HELP = """
            Usage: java -jar quotient.jar inspect [--url=http://localhost:8080] [--watch[=SECONDS]] [-o table|json]
                   java -jar quotient.jar inspect usage [--from=YYYY-MM-DD] [--to=YYYY-MM-DD]
                                                        [--group-by=team|job|department] [--bucket=hour|day]
                                                        [options above]

            Asks a running Quotient service (GET /api/v1/dashboard, the data of the web dashboard at /) and
            prints what the dashboard shows: per team the guaranteed GPUs, the fair share (when the service
            reports one), the GPUs held in quota and borrowed and the pending GPUs; the GPU map, one line per
            node and one cell per GPU; the GPUs shared by fractions with each job's share and memory; the
            pending jobs with the reason they wait; the recent events (placed, preempted, re-queued, moved);
            and the cluster's fragmentation. It needs the service: start one with 'java -jar quotient.jar
            serve' (an embedded demo cluster when no Kubernetes is configured) or point --url at a deployed one.

            'inspect usage' asks GET /api/v1/usage instead and prints the showback table: per team (or job, or
            department) the GPU-hours allocated (in quota and borrowed), used, idle and unmeasured, and the
            utilization, over whole UTC days (default: the last 7); with --bucket one line per group and UTC
            hour or day. docs/usage.md defines each figure.

            Options:
              --url=URL          the service's base URL (default http://localhost:8080); also --url URL
              --token=TOKEN      a bearer token for a service that requires one (default: $QUOTIENT_TOKEN)
              --watch[=SECONDS]  redraw every SECONDS (default 2) until interrupted (Ctrl-C)
              -o, --output=FMT   table (default) or json: the service's answer as it came, one line per refresh
                                 with --watch
              --from=DAY, --to=DAY   (usage) the first and last UTC day, both included
              --group-by=GROUPING    (usage) team (default), job or department
              --bucket=hour|day      (usage) over time: one line per group and hour (last 8 days) or day
              --help             this text

            Exit status: 0 printed, 1 the service could not be reached or answered an error,
            2 bad options.
            """;
    private static final String DEFAULT_URL = "http://localhost:8080";
    /** The options of {@code inspect usage} and the query parameters of {@code GET /api/v1/usage} they set. */
    private static final Map<String, String> USAGE_OPTIONS =
            Map.of("--from", "from", "--to", "to", "--group-by", "groupBy", "--bucket", "bucket");
    /** Moves the cursor home and clears the terminal, so that --watch redraws in place. */
    private static final String CLEAR = "\033[H\033[2J";

    private final ObjectMapper json = new ObjectMapper();
    private final PrintStream out;
    private final PrintStream err;
    private final String tokenFromEnvironment;
    /** How many refreshes --watch makes before it returns; unbounded except in tests. */
    private final long maxRefreshes;

    public InspectCommand() {
        this(System.out, System.err, System.getenv("QUOTIENT_TOKEN"), Long.MAX_VALUE);
    }

    InspectCommand(PrintStream out, PrintStream err) {
        this(out, err, null, Long.MAX_VALUE);
    }

    InspectCommand(PrintStream out, PrintStream err, String tokenFromEnvironment, long maxRefreshes) {
        this.out = out;
        this.err = err;
        this.tokenFromEnvironment = tokenFromEnvironment;
        this.maxRefreshes = maxRefreshes;
    }

    /**
     * The options as given; {@code watch} is null when the report is printed once; {@code usage} is null for the
     * dashboard, else the showback query's parameters as given (the service checks them).
     */
    record Options(String url, String token, Duration watch, boolean json, Map<String, String> usage) {

        /** The service path this view reads, with its query. */
        String path() {
            if (usage == null) {
                return "/api/v1/dashboard";
            }
            return "/api/v1/usage"
                    + (usage.isEmpty()
                            ? ""
                            : usage.entrySet().stream()
                                    .map(e ->
                                            e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                                    .collect(Collectors.joining("&", "?", "")));
        }
    }

    @Override
    public int run(String[] args) {
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            err.println("inspect: " + e.getMessage() + "\n" + HELP);
            return 2;
        }
        if (options == null) {
            out.println(HELP);
            return 0;
        }
        HttpClient client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try {
            for (long refresh = 1; ; refresh++) {
                String answer = fetch(client, options);
                print(answer, options);
                if (options.watch() == null || refresh >= maxRefreshes) {
                    return 0;
                }
                Thread.sleep(options.watch().toMillis());
            }
        } catch (IOException e) {
            err.println("inspect: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    @Override
    public String summary() {
        return "show a running service's teams, GPU map, pending jobs and events (--watch, -o json);"
                + " 'inspect usage': GPU-hours allocated, used and idle per team";
    }

    Options parse(String[] args) {
        String url = DEFAULT_URL;
        String token = tokenFromEnvironment;
        Duration watch = null;
        boolean asJson = false;
        Map<String, String> usage = args.length > 0 && args[0].equals("usage") ? new LinkedHashMap<>() : null;
        for (int i = usage == null ? 0 : 1; i < args.length; i++) {
            String arg = args[i];
            String usageParameter = usage == null ? null : USAGE_OPTIONS.get(arg.split("=", 2)[0]);
            if (arg.equals("--help") || arg.equals("-h")) {
                return null;
            } else if (arg.startsWith("--url=")) {
                url = arg.substring("--url=".length());
            } else if (arg.equals("--url") && i + 1 < args.length) {
                url = args[++i];
            } else if (arg.startsWith("--token=")) {
                token = arg.substring("--token=".length());
            } else if (arg.equals("--watch")) {
                watch = Duration.ofSeconds(2);
            } else if (arg.startsWith("--watch=")) {
                watch = seconds(arg.substring("--watch=".length()));
            } else if ((arg.equals("-o") || arg.equals("--output")) && i + 1 < args.length) {
                asJson = format(args[++i]);
            } else if (arg.startsWith("--output=") || arg.startsWith("-o=")) {
                asJson = format(arg.substring(arg.indexOf('=') + 1));
            } else if (usageParameter != null && arg.contains("=")) {
                usage.put(usageParameter, arg.substring(arg.indexOf('=') + 1));
            } else if (usageParameter != null && i + 1 < args.length) {
                usage.put(usageParameter, args[++i]);
            } else {
                throw new IllegalArgumentException("unknown option '" + arg + "'");
            }
        }
        return new Options(
                url.replaceAll("/+$", ""), token == null || token.isBlank() ? null : token, watch, asJson, usage);
    }

    private static Duration seconds(String text) {
        try {
            double seconds = Double.parseDouble(text);
            if (seconds >= 0.1 && seconds <= 3600) {
                return Duration.ofMillis(Math.round(seconds * 1000));
            }
        } catch (NumberFormatException e) {
            // falls through to the error below
        }
        throw new IllegalArgumentException("--watch takes seconds between 0.1 and 3600, was '" + text + "'");
    }

    private static boolean format(String name) {
        return switch (name) {
            case "json" -> true;
            case "table" -> false;
            default -> throw new IllegalArgumentException("-o takes table or json, was '" + name + "'");
        };
    }

    private void print(String answer, Options options) throws IOException {
        JsonNode view = json.readTree(answer);
        if (options.json()) {
            out.println(json.writeValueAsString(view)); // one line per refresh: a stream other tools can read
        } else {
            out.print((options.watch() == null ? "" : CLEAR)
                    + (options.usage() == null ? InspectReport.render(view) : UsageReport.render(view)));
        }
        out.flush();
    }

    private String fetch(HttpClient client, Options options) throws IOException, InterruptedException {
        String url = options.url() + options.path();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10))
                .header("Accept", "application/json");
        if (options.token() != null) {
            request.header("Authorization", "Bearer " + options.token());
        }
        HttpResponse<String> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IOException(
                    "cannot reach the Quotient service at " + options.url() + " (" + e.getMessage()
                            + "). Start it with 'java -jar quotient.jar serve' or pass --url=...",
                    e);
        }
        return switch (response.statusCode()) {
            case 200 -> response.body();
            case 401 ->
                throw new IOException("the service at " + options.url() + " asks for authentication (401)"
                        + (options.token() == null
                                ? ": pass --token=TOKEN or set QUOTIENT_TOKEN"
                                : ": the token given was refused; check it has not expired"));
            case 403 -> throw new IOException("the token may not read " + url + " (403): " + response.body());
            default ->
                throw new IOException("GET " + url + " answered " + response.statusCode() + ": " + response.body()
                        + (response.statusCode() == 400 ? " (see 'inspect --help')" : ""));
        };
    }
}
