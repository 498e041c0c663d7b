package io.quotient.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code replay} end to end on a small trace: options, the teams file, the JSON fields and the table. */
class ReplayCommandTest {

    private static final List<String> FIELDS = List.of(
            "policy",
            "jobs",
            "gpuAllocationPctWhileWaiting",
            "queueDelaySeconds",
            "jctSeconds",
            "timeToGuaranteeSeconds",
            "guaranteeDeficitGpuHours",
            "preemptions",
            "lostGpuHours",
            "deliveredGpuHours",
            "fragmentationDelayJobHours",
            "jainFairness",
            "jainFairnessPerDay",
            "models",
            "decisionsPerSecond",
            "teams");

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return new ReplayCommand(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8))
                .run(args);
    }

    private Path trace() throws IOException {
        Path jobs = dir.resolve("jobs.csv");
        StringBuilder sb = new StringBuilder("submit,duration,team,gpus\n");
        for (int i = 0; i < 30; i++) {
            sb.append(i * 120)
                    .append(',')
                    .append(1800 + i * 60)
                    .append(',')
                    .append(i % 3 == 0 ? "a" : "b")
                    .append(',')
                    .append(1 + i % 4)
                    .append('\n');
        }
        Files.writeString(jobs, sb.toString());
        return jobs;
    }

    @Test
    void everyPolicyReportsTheFieldsTheResultsAreReadBy() throws IOException {
        Path teams = dir.resolve("teams.yaml");
        Files.writeString(teams, "teams:\n  - name: a\n    guaranteedGpus: 6\n  - name: b\n    guaranteedGpus: 2\n");
        int code = run(
                "--jobs",
                trace().toString(),
                "--teams",
                teams.toString(),
                "--nodes",
                "2",
                "--gpus-per-node",
                "4",
                "--policy",
                "all",
                "--json");
        assertThat(code).as(err.toString()).isZero();
        JsonNode results = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
        assertThat(results).hasSize(6);
        assertThat(results.findValuesAsText("policy"))
                .containsExactly("quotient", "static", "borrow", "fifo", "kueue-like", "kai-like");
        for (JsonNode r : results) {
            for (String field : FIELDS) {
                assertThat(r.has(field)).as(r.get("policy") + " has " + field).isTrue();
            }
            assertThat(r.get("jobs").asInt()).isEqualTo(30);
            assertThat(r.get("queueDelaySeconds").has("p99")).isTrue();
            assertThat(r.get("teams")).hasSize(2);
            assertThat(r.get("teams").get(0).get("name").asText()).isEqualTo("a");
            assertThat(r.get("teams").get(0).has("timeToGuaranteeSeconds")).isTrue();
        }
        // fifo has no caps: everything finishes; static caps b at 2 GPUs, so its 3- and 4-GPU jobs never run
        assertThat(results.get(3).get("finished").asInt()).isEqualTo(30);
        assertThat(results.get(1).get("finished").asInt()).isLessThan(30);
    }

    @Test
    void theTableHasOneRowPerPolicy() throws IOException {
        int code = run("--jobs", trace().toString(), "--nodes", "2", "--policy", "kueue-like");
        assertThat(code).as(err.toString()).isZero();
        String table = out.toString(StandardCharsets.UTF_8);
        assertThat(table.lines()).hasSize(2);
        assertThat(table.lines().toList().get(1)).startsWith("kueue-like");
    }

    @Test
    void chartsAreWrittenAsPngPerPolicyAndOneForTheQueueingDelays() throws IOException {
        Path charts = dir.resolve("charts");
        int code = run("--jobs", trace().toString(), "--nodes", "2", "--policy", "all", "--charts", charts.toString());
        assertThat(code).as(err.toString()).isZero();
        assertThat(charts.resolve("queue-delay.png")).exists();
        for (String policy : List.of("quotient", "static", "borrow", "fifo", "kueue-like", "kai-like")) {
            Path png = charts.resolve("gpus-per-team-" + policy + ".png");
            byte[] head = Arrays.copyOf(Files.readAllBytes(png), 4);
            assertThat(head).containsExactly(0x89, 'P', 'N', 'G');
        }
    }

    @Test
    void notebooksAddedWithAnIdlePolicyReportTheIdleFiguresOnlyThenAndAlikePerSeed() throws IOException {
        Path teams = dir.resolve("idle.yaml");
        Files.writeString(teams, """
                teams:
                  - name: a
                    guaranteedGpus: 6
                    idle: {kinds: [notebook], after: 30m, warnAfter: 20m, threshold: 5%, onlyWhenOthersWait: true, action: stop}
                  - name: b
                    guaranteedGpus: 2
                """);
        // 30 jobs from 09:00 to 12:00 of a Thursday (1970-01-01): working hours, when notebooks open
        Path jobs = dir.resolve("day.csv");
        StringBuilder sb = new StringBuilder("submit,duration,team,gpus\n");
        for (int i = 0; i < 30; i++) {
            sb.append(9 * 3600 + i * 360)
                    .append(",3600,")
                    .append(i % 3 == 0 ? "a" : "b")
                    .append(",2\n");
        }
        Files.writeString(jobs, sb.toString());
        List<String> args =
                List.of("--jobs", jobs.toString(), "--teams", teams.toString(), "--nodes", "2", "--gpus-per-node", "4");
        assertThat(run(json(args))).as(err.toString()).isZero();
        assertThat(read().has("idle")).isFalse();

        List<String> notebooks = new ArrayList<>(args);
        notebooks.addAll(List.of("--add-notebooks", "20", "--seed", "3"));
        assertThat(run(json(notebooks))).as(err.toString()).isZero();
        JsonNode result = read();
        assertThat(result.get("jobs").asInt()).isGreaterThan(30);
        for (String field : List.of(
                "idleGpuHours",
                "returnedGpuHours",
                "stoppedGpuHours",
                "stops",
                "preemptions",
                "waiters",
                "waiterQueueDelaySeconds")) {
            assertThat(result.get("idle").has(field)).as(field).isTrue();
        }
        assertThat(result.get("idle").get("idleGpuHours").asDouble()).isPositive();
        assertThat(result.get("idle").get("preemptions").asInt()).isZero(); // action stop
        assertThat(run(json(notebooks))).isZero();
        JsonNode again = read();
        for (JsonNode r : List.of(result, again)) {
            ((ObjectNode) r).remove(List.of("decisionsPerSecond", "wallSeconds"));
        }
        assertThat(again).isEqualTo(result);

        assertThat(run(notebooks.toArray(String[]::new))).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).lines().findFirst().orElseThrow())
                .contains("idle GPUh")
                .contains("returned GPUh")
                .contains("stopped GPUh");
    }

    private static String[] json(List<String> args) {
        List<String> all = new ArrayList<>(args);
        all.add("--json");
        return all.toArray(String[]::new);
    }

    /** The JSON printed since the last read. */
    private JsonNode read() throws IOException {
        JsonNode node = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
        out.reset();
        return node;
    }

    @Test
    void badOptionsAndInputsAreRefusedNamingWhatIsWrong() throws IOException {
        assertThat(run("--jobs", trace().toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--nodes FILE").contains("--load X");
        err.reset();
        assertThat(run("--jobs", trace().toString(), "--nodes", "2", "--policy", "slurm"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("unknown replay policy 'slurm'").contains("kai-like");
        err.reset();
        assertThat(run("--jobs", trace().toString(), "--nodes", "2", "--usage-half-life", "soon"))
                .isEqualTo(2);
        assertThat(err.toString())
                .contains("--usage-half-life must be a duration")
                .contains("'soon'");
        err.reset();
        assertThat(run("--jobs", trace().toString(), "--nodes", "2", "--usage-half-life", "-PT1H"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("fairShare.usageHalfLife");
        err.reset();
        assertThat(run("--jobs", trace().toString(), "--nodes", "2", "--add-notebooks", "many"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--add-notebooks must be a number such as 1.0, was 'many'");
        err.reset();
        assertThat(run("--jobs", trace().toString(), "--nodes", "2", "--add-notebooks", "2", "--seed", "x"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--seed must be a whole number, was 'x'");
        err.reset();
        Path teams = dir.resolve("partial.yaml");
        Files.writeString(teams, "teams:\n  - name: a\n    guaranteedGpus: 1\n");
        assertThat(run("--jobs", trace().toString(), "--teams", teams.toString(), "--nodes", "2"))
                .isEqualTo(1);
        assertThat(err.toString()).contains("team b").contains("teams file does not define");
        assertThat(out.toString()).isEmpty();
    }

    /**
     * Said before the run: a job larger than the cluster never runs and guarantees beyond it cannot all be met; a
     * charts folder that cannot be written fails before the replay, not after it has run.
     */
    @Test
    void whatMakesTheFiguresMeanLessIsSaidBeforeTheRun() throws IOException {
        Path jobs = dir.resolve("large.csv");
        Files.writeString(jobs, "submit,duration,team,gpus\n0,60,a,1\n10,60,b,24\n");
        Path teams = dir.resolve("over.yaml");
        Files.writeString(teams, "teams:\n  - name: a\n    guaranteedGpus: 8\n  - name: b\n    guaranteedGpus: 12\n");
        assertThat(run("--jobs", jobs.toString(), "--teams", teams.toString(), "--nodes", "2"))
                .isEqualTo(0);
        assertThat(err.toString())
                .contains("warning: 1 job(s) ask for more GPUs than the cluster's 16 (the largest 24, job")
                .contains("warning: the guarantees total 20 GPUs on a cluster of 16: they are met in proportion");
        err.reset();
        Path file = dir.resolve("a-file");
        Files.writeString(file, "not a folder");
        assertThat(run("--jobs", trace().toString(), "--nodes", "2", "--charts", file.toString()))
                .isEqualTo(1);
        assertThat(err.toString()).contains("cannot write the charts to").doesNotContain("policy");
    }

    @Test
    void theMixedModelVariantPinsJobsAndReportsEachModel() throws IOException {
        int code = run(
                "--jobs",
                trace().toString(),
                "--nodes",
                "4",
                "--gpus-per-node",
                "4",
                "--node-models",
                "H100-80GB:0.25,A100-SXM4-80GB:0.75",
                "--pin-models",
                "1",
                "--json");
        assertThat(code).as(err.toString()).isZero();
        JsonNode r = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
        assertThat(r.get("models").findValuesAsText("model")).containsExactly("A100-SXM4-80GB", "H100-80GB");
        assertThat(r.get("models").findValues("gpus").stream().map(JsonNode::asInt))
                .containsExactly(12, 4);
        assertThat(r.get("finished").asInt())
                .as("every pinned job fits its model")
                .isEqualTo(30);
        assertThat(r.get("jainFairnessPerDay").get(0).get("day").asText()).isEqualTo("1970-01-01");
    }

    @Test
    void badModelOptionsAreRefusedNamingTheOption() throws IOException {
        assertThat(run("--jobs", trace().toString(), "--nodes", "2", "--node-models", "H100-80GB:0.5,V100-32GB:0.4"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--node-models").contains("sum to 0.9");
        err.reset();
        assertThat(run("--jobs", trace().toString(), "--nodes", "2", "--node-models", "H100 80GB:1"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--node-models").contains("'H100 80GB' is not a GPU model name");
        err.reset();
        Path nodes = dir.resolve("nodes.csv");
        Files.writeString(nodes, "sn,cpu_milli,memory_mib,gpu,model\nn1,32000,262144,8,V100M32\n");
        assertThat(run("--jobs", trace().toString(), "--nodes", nodes.toString(), "--node-models", "A:1"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--node-models is for generated nodes");
        err.reset();
        assertThat(run("--jobs", trace().toString(), "--nodes", "2", "--pin-models", "1.5"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--pin-models must be a share of the jobs in 0..1");
        err.reset();
        assertThat(run("--jobs", trace().toString(), "--nodes", "2", "--pin-seed", "7"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--pin-seed seeds --pin-models");
        assertThat(out.toString()).isEmpty();
    }
}
