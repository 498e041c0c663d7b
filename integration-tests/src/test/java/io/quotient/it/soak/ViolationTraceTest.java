package io.quotient.it.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The trace a failed soak prints: the named jobs' changes, operations and events, the faults and Lease holders. */
class ViolationTraceTest {

    @Test
    void tellsTheStoryOfTheJobsTheViolationsNameAndNothingElse(@TempDir Path dir) throws Exception {
        Path history = dir.resolve("soak.jsonl");
        Files.write(
                history,
                List.of(
                        "{\"t\":1,\"type\":\"start\",\"seed\":16}",
                        "{\"t\":100,\"type\":\"op\",\"op\":\"deploy\",\"team\":\"team-2\",\"job\":\"pt5\",\"kind\":\"pytorchjob\"}",
                        "{\"t\":110,\"type\":\"op\",\"op\":\"deploy\",\"team\":\"team-1\",\"job\":\"other\",\"kind\":\"whole\"}",
                        obs(
                                200,
                                "replica-1",
                                job("team-2", "pt5", "Pending", null, "[]") + ","
                                        + job("team-1", "other", "Running", "n2", "[[0,1000]]"),
                                ""),
                        "{\"t\":300,\"type\":\"fault\",\"fault\":\"pause-leader\",\"target\":\"replica-1\",\"end\":12300}",
                        obs(
                                9000,
                                "replica-2",
                                job("team-2", "pt5", "Pending", null, "[]") + ","
                                        + job("team-4", "j91", "Placed", "n1", "[[0,250]]"),
                                "{\"instance\":\"replica-2\",\"reason\":\"Placed\",\"at\":8900,\"object\":\"team-4.j91\"}"),
                        obs(
                                12500,
                                "replica-2",
                                job("team-2", "pt5", "Placed", "n1", "[[0,1000]]") + ","
                                        + job("team-4", "j91", "Placed", "n1", "[[0,250]]"),
                                "{\"instance\":\"replica-1\",\"reason\":\"Placed\",\"at\":12400,\"object\":\"team-2.pt5\"}"),
                        obs(14500, "replica-2", job("team-4", "j91", "Placed", "n1", "[[0,250]]"), "")));

        String trace = ViolationTrace.of(
                history, List.of("t=12500: GPU n1/0 guarantees 1250 milli: [team-4/j91=250, team-2/pt5=1000]"), 50);

        assertThat(trace.lines())
                .containsExactly(
                        "trace of [team-4/j91, team-2/pt5] (ms since the start):",
                        "t=100 op {\"t\":100,\"type\":\"op\",\"op\":\"deploy\",\"team\":\"team-2\",\"job\":\"pt5\","
                                + "\"kind\":\"pytorchjob\"}",
                        "t=200 Lease held by replica-1",
                        "t=200 team-2/pt5 Pending on null gpus []",
                        "t=300 fault pause-leader on replica-1 until 12300",
                        "t=9000 Lease held by replica-2",
                        "t=9000 team-4/j91 Placed on n1 gpus [[0,250]]",
                        "t=8900 event Placed on team-4.j91 by replica-2",
                        "t=12500 team-2/pt5 Placed on n1 gpus [[0,1000]]",
                        "t=12400 event Placed on team-2.pt5 by replica-1",
                        "t=14500 team-2/pt5 has no GpuJob");
    }

    @Test
    void keepsTheFirstLinesWhenTheStoryIsLongAndIsEmptyWithoutViolations(@TempDir Path dir) throws Exception {
        Path history = dir.resolve("soak.jsonl");
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            lines.add("{\"t\":" + i + ",\"type\":\"fault\",\"fault\":\"api-cut\",\"target\":\"api-server\",\"end\":1}");
        }
        Files.write(history, lines);

        String trace = ViolationTrace.of(history, List.of("team-1/j1 is Running on [n1] but has live pods []"), 4);

        assertThat(trace.lines()).hasSize(5).last().isEqualTo("(7 more lines in the history)");
        assertThat(ViolationTrace.of(history, List.of(), 4)).isEmpty();
    }

    private static String obs(long t, String holder, String jobs, String events) {
        return "{\"t\":" + t + ",\"type\":\"obs\",\"jobs\":[" + jobs + "],\"lease\":{\"holder\":\"" + holder
                + "\",\"acquire\":0,\"renew\":0,\"transitions\":0},\"events\":[" + events + "]}";
    }

    private static String job(String team, String name, String phase, String node, String gpus) {
        return "{\"team\":\"" + team + "\",\"job\":\"" + name + "\",\"phase\":\"" + phase + "\",\"node\":"
                + (node == null ? "null" : "\"" + node + "\"") + ",\"gpus\":" + gpus + "}";
    }
}
