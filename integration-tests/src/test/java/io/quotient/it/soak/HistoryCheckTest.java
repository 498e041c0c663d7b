package io.quotient.it.soak;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The offline checker on small hand-made histories (one where everything holds, one that breaks four invariants,
 * one of gangs) and on a recorded run that found two bugs.
 */
class HistoryCheckTest {

    @Test
    void aCleanHistoryHasNoViolationAndItsFigures() throws Exception {
        HistoryChecker.Verdict verdict = HistoryCheck.check(resource("clean-history.jsonl"));

        assertThat(verdict.violations()).isEmpty();
        assertThat(verdict.figures().operationCount()).isEqualTo(4);
        assertThat(verdict.figures().faultsByKind()).containsEntry("kill-leader", 1);
        assertThat(verdict.figures().describe()).contains("recovery after kill-leader: n=1 p50 10.5 s")
                .contains("leader failover (leader fault to the next Lease write): n=1 p50 9.0 s");
    }

    @Test
    void aHistoryWithViolationsNamesEachOne() throws Exception {
        HistoryChecker.Verdict verdict = HistoryCheck.check(resource("violating-history.jsonl"));

        assertThat(verdict.violations()).anySatisfy(v -> assertThat(v)
                        .contains("GPU n1/0 guarantees 1200 milli: [team-a/a1=600, team-b/b1=600]"))
                .anySatisfy(v -> assertThat(v).contains("team-b/b1 was accepted at t=200 and is gone"))
                .anySatisfy(v -> assertThat(v).contains("replica replica-1 decided (Placed on team-b.b2 at t=13000 ms)"
                        + " outside its terms as leader"))
                .anySatisfy(v -> assertThat(v).contains("team-b holds 0 milli of its 2000 guarantee, yet team-b/b2"
                        + " (1000 milli) still waits"));
        assertThat(verdict.violations()).noneSatisfy(v -> assertThat(v).contains("reservation pod"));
    }

    /**
     * A real run (seed 1, 10 nodes, 90 s, before the leadership fix): the leader paused past its lease kept deciding
     * for 5 s after waking while the other replica held the Lease, and jobs stayed Running on removed nodes.
     */
    @Test
    void aRecordedRunShowsTheSplitBrainAndTheJobsLeftOnRemovedNodes() throws Exception {
        HistoryChecker.Verdict verdict = HistoryCheck.check(resource("recorded/seed-1-split-brain-and-removed-node.jsonl.gz"));

        assertThat(verdict.violations()).anySatisfy(v -> assertThat(v).startsWith("replica replica-1 decided (Placed on"
                        + " probe.probe-2 at t=53773 ms) outside its terms as leader"))
                .anySatisfy(v -> assertThat(v).contains("is Running on node soak-bhnhq, which no longer exists"));
        assertThat(verdict.figures().faultsByKind()).containsOnlyKeys("kill-leader", "kill-follower", "pause-leader",
                "pause-follower", "api-cut");
    }

    /**
     * Gangs (2 replicas each): one placed on one node only, one waiting while a pod of it still runs, one whose
     * second replica's node is gone; a whole gang with its two pods is fine.
     */
    @Test
    void aGangRunsWholeOrNotAtAll() throws Exception {
        HistoryChecker.Verdict verdict = HistoryCheck.check(resource("gang-history.jsonl"));

        assertThat(verdict.violations())
                .anySatisfy(v -> assertThat(v).contains("gang team-a/g2 is Running with 2 replicas but placed on [n1]"))
                .anySatisfy(v -> assertThat(v).contains("gang team-a/g3 waits Pending but 1 of its pods still run"))
                .anySatisfy(v -> assertThat(v).contains("team-a/g1 is Running on node n2, which no longer exists"))
                .noneSatisfy(v -> assertThat(v).contains("g4"))
                .noneSatisfy(v -> assertThat(v).contains("duplicate"));
    }

    @Test
    void aHistoryCutShortIsAViolation(@TempDir Path dir) throws Exception {
        Path cut = dir.resolve("cut.jsonl");
        Files.write(cut, Files.readAllLines(resource("clean-history.jsonl")).subList(0, 8));

        assertThat(HistoryCheck.check(cut).violations())
                .contains("the history has no end entry: the run stopped early");
    }

    @Test
    void aFileThatIsNoHistorySaysWhichLine(@TempDir Path dir) throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.jsonl"), "{\"t\":0,\"type\":\"start\"}\nnot json\n");

        assertThatThrownBy(() -> HistoryCheck.check(bad)).hasMessageStartingWith("line 1 is not a history entry");
    }

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(HistoryCheckTest.class.getResource("/soak/" + name).toURI());
    }
}
