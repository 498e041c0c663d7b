package io.quotient.it.soak;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonParser;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KubeflowLookTest {

    @Test
    void aLookIsWrittenInTheHistoryFormatAndReadBackAsItWas() {
        KubeflowLook look = new KubeflowLook(
                List.of(new KubeflowLook.Workload("team-a/pt1", "PyTorchJob", true)),
                List.of(new KubeflowLook.NotebookPod("team-a/nb-0", null, true)),
                Map.of("team-a/pt2", List.of("n1", "n2")));

        var json = look.toJson();

        assertThat(json).isEqualTo(JsonParser.parseString("""
                {"workloads": [{"key": "team-a/pt1", "kind": "PyTorchJob", "suspended": true}],
                 "notebooks": [{"key": "team-a/nb-0", "pinned": true}],
                 "podNodes": {"team-a/pt2": ["n1", "n2"]}}"""));
        assertThat(KubeflowLook.fromJson(json)).isEqualTo(look);
        assertThat(KubeflowLook.fromJson(
                        JsonParser.parseString("{\"workloads\": []}").getAsJsonObject()))
                .as("a part missing from an older history")
                .isEqualTo(KubeflowLook.NONE);
    }
}
