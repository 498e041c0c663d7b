package io.quotient.app;

import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.AutoConfigureMockMvc;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.yaml.snakeyaml.Yaml;

/**
 * Quota scenarios of issue 13 through the REST API of the embedded service, on its own one-node 8-GPU cluster:
 * guarantee-exact reclaim (the victim team keeps its guarantee, the least is evicted), the wait reason of a job
 * larger than its team's guarantee, and the teams view with fair share next to guaranteed, in-quota and borrowed.
 */
@SpringBootTest(classes = QuotientApplication.class, properties = "quotient.cluster.mode=embedded")
@AutoConfigureMockMvc
public class QuotaReclaimApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Autowired
    private MockMvc mvc;

    @DynamicPropertySource
    static void files(DynamicPropertyRegistry registry) {
        embeddedFiles(
                registry,
                List.of(
                        Map.of("name", "team-a", "guaranteedGpus", 4),
                        Map.of("name", "team-b", "guaranteedGpus", 3),
                        Map.of("name", "team-c", "guaranteedGpus", 1)));
    }

    /** The embedded service's cluster (one 8-GPU node) and teams files, written aside and set as its properties. */
    /**
     * The embedded cluster of {@code ModelGroupsBrowserTest} and {@code InspectModelGroupsTest}: one node of 4 H100s
     * and one of 4 A100s; {@code owner} guaranteed 2 H100s, {@code borrower} nothing.
     */
    public static void twoModels(DynamicPropertyRegistry registry) {
        Path cluster = yamlFile(
                "quotient-cluster",
                Map.of("nodes", List.of(node("h100-node", 4, "H100-80GB"), node("a100-node", 4, "A100-SXM4-80GB"))));
        Path teams = yamlFile(
                "quotient-teams",
                Map.of(
                        "teams",
                        List.of(
                                Map.of(
                                        "name",
                                        "owner",
                                        "guarantees",
                                        List.of(Map.of("models", List.of("H100-80GB"), "gpus", 2))),
                                Map.of("name", "borrower", "guaranteedGpus", 0))));
        registry.add("quotient.embedded.cluster-file", cluster::toString);
        registry.add("quotient.teams-file", teams::toString);
    }

    /**
     * The jobs both tests submit to {@link #twoModels}, as (team, REST body, the answer's status: 201 placed, 202
     * waiting): the borrower takes the 4 A100s; the owner
     * 2 H100s in its group and a third H100 borrowed; the borrower's 2-H100 job waits (1 H100 idle, and its fair
     * share of the H100 group is 1: owner 2 guaranteed + 1, borrower 1).
     */
    public static final List<String[]> TWO_MODEL_JOBS = List.of(
            job("borrower", "on-a100", 4, "A100-SXM4-80GB", "201"),
            job("owner", "two", 2, null, "201"),
            job("owner", "more", 1, "H100-80GB", "201"),
            job("borrower", "wait-h100", 2, "H100-80GB", "202"));

    private static String[] job(String team, String name, int gpus, String model, String status) {
        return new String[] {
            team,
            "{\"name\":\"" + name + "\",\"gpu\":{\"count\":" + gpus + "},"
                    + (model == null ? "" : "\"gpuModels\":[\"" + model + "\"],") + "\"preemptible\":true}",
            status
        };
    }

    public static void embeddedFiles(DynamicPropertyRegistry registry, List<Map<String, Object>> teams) {
        Path cluster = yamlFile("quotient-cluster", Map.of("nodes", List.of(node())));
        Path teamsFile = yamlFile("quotient-teams", Map.of("teams", teams));
        registry.add("quotient.embedded.cluster-file", cluster::toString);
        registry.add("quotient.teams-file", teamsFile::toString);
    }

    @Test
    void reclaimEvictsTheLeastAndKeepsTheVictimAtItsGuaranteeThenTheTeamsViewShowsTheShares() throws Exception {
        deploy("team-a", "a5", 5).andExpect(status().isCreated());
        deploy("team-a", "a2", 2).andExpect(status().isCreated());
        deploy("team-a", "a1", 1).andExpect(status().isCreated());

        // team-c's 3-GPU job is larger than its guarantee: it may only borrow, and nothing is idle
        deploy("team-c", "big", 3)
                .andExpect(status().isAccepted())
                .andExpect(jsonPath("$.reason")
                        .value(containsString("this job needs 3 GPUs, more than team-c's"
                                + " guarantee leaves (holds 0 of 1 guaranteed GPUs)")))
                .andExpect(jsonPath("$.reason").value(not(containsString("has used its guarantee"))));

        // team-b reclaims 3: the 2- and 1-GPU jobs go, team-a keeps its 5-GPU job (5 >= its guarantee of 4)
        deploy("team-b", "b3", 3)
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.phase").value("Placed"));
        job("team-a", "a5").andExpect(jsonPath("$.phase").value(anyOf(is("Placed"), is("Running"))));
        job("team-a", "a2")
                .andExpect(jsonPath("$.phase").value(anyOf(is("Pending"), is("Preempted"))))
                .andExpect(jsonPath("$.reason").value(containsString("reclaiming its guarantee")));
        job("team-a", "a1").andExpect(jsonPath("$.phase").value(anyOf(is("Pending"), is("Preempted"))));

        mvc.perform(get("/api/v1/teams"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[?(@.name == 'team-a')].allocatedGpus").value(5.0))
                .andExpect(jsonPath("$[?(@.name == 'team-a')].inQuotaGpus").value(5.0))
                .andExpect(jsonPath("$[?(@.name == 'team-a')].overQuotaGpus").value(0.0))
                .andExpect(jsonPath("$[?(@.name == 'team-a')].fairShareGpus").value(4.0))
                .andExpect(jsonPath("$[?(@.name == 'team-b')].fairShareGpus").value(3.0))
                .andExpect(jsonPath("$[?(@.name == 'team-b')].inQuotaGpus").value(3.0))
                .andExpect(jsonPath("$[?(@.name == 'team-c')].fairShareGpus").value(1.0))
                .andExpect(
                        jsonPath("$[?(@.name == 'team-a')].preemptWithinTeam").value("LowerPriority"));
    }

    private ResultActions deploy(String team, String name, int gpus) throws Exception {
        return deploy(mvc, team, name, gpus);
    }

    /** Deploys a preemptible job of whole GPUs through the REST API. */
    static ResultActions deploy(MockMvc mvc, String team, String name, int gpus) throws Exception {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("gpu", Map.of("count", gpus));
        body.put("preemptible", true);
        return mvc.perform(post("/api/v1/teams/" + team + "/jobs")
                .contentType(MediaType.APPLICATION_JSON)
                .content(JSON.writeValueAsString(body)));
    }

    private ResultActions job(String team, String name) throws Exception {
        return mvc.perform(get("/api/v1/teams/" + team + "/jobs/" + name)).andExpect(status().isOk());
    }

    private static Map<String, Object> node() {
        return node("gpu-node", 8, "A100-SXM4-80GB");
    }

    /** One embedded node of the cluster file. */
    public static Map<String, Object> node(String name, int gpus, String model) {
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("name", name);
        node.put("count", 1);
        node.put("gpus", gpus);
        node.put("gpuModel", model);
        node.put("gpuMemoryMib", 81920);
        node.put("cpuMilli", 128000);
        node.put("memoryMib", 1048576);
        return node;
    }

    public static Path yamlFile(String prefix, Object content) {
        try {
            Path file = Files.createTempFile(prefix, ".yaml");
            file.toFile().deleteOnExit();
            return Files.writeString(file, new Yaml().dump(content));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
