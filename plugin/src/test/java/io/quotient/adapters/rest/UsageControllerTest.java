package io.quotient.adapters.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.quotient.adapters.memory.InMemoryJobRecordStore;
import io.quotient.adapters.memory.InMemoryUsageRecordStore;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.Department;
import io.quotient.core.model.JobId;
import io.quotient.core.model.Team;
import io.quotient.core.model.WithinTeamPreemption;
import io.quotient.core.usage.JobUsageRecord;
import io.quotient.core.usage.UsageAccumulator;
import io.quotient.core.usage.UsageCounters;
import io.quotient.deploy.port.ClusterObserver;
import io.quotient.deploy.port.GpuSlot;
import io.quotient.deploy.port.WorkloadPhase;
import io.quotient.usage.UsageRecorder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

/** Showback over stored usage records: groupings, day ranges, CSV, and requests refused with the field named. */
class UsageControllerTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-03T12:00:00Z"), ZoneOffset.UTC);
    private static final Department RESEARCH = new Department("research", 0, Team.UNLIMITED, 1);
    private static final UsageCounters DAY = new UsageCounters(3600, 7200, 10800, 0, 5400, 10800, 10800, 1024.0 * 3600);

    private final InMemoryUsageRecordStore store = new InMemoryUsageRecordStore();
    private final MockMvc mvc;

    UsageControllerTest() {
        store.save(List.of(
                record(
                        new JobId("vision", "notebook"),
                        Map.of(LocalDate.parse("2026-12-01"), DAY, LocalDate.parse("2026-12-02"), DAY)),
                record(new JobId("vision", "trainer"), Map.of(LocalDate.parse("2026-12-02"), DAY)),
                record(new JobId("nlp", "bert"), Map.of(LocalDate.parse("2026-11-20"), DAY))));
        // a replica that does not lead answers from the store
        UsageRecorder recorder = new UsageRecorder(
                new InMemoryJobRecordStore(),
                new NoCluster(),
                store,
                () -> false,
                CLOCK,
                new UsageRecorder.Settings(
                        new UsageAccumulator.Settings(Duration.ofMinutes(5)), Duration.ofMinutes(1)));
        Map<String, Team> teams = Map.of(
                "vision",
                        new Team(
                                "vision",
                                2000,
                                Team.UNLIMITED,
                                1,
                                0,
                                WithinTeamPreemption.LOWER_PRIORITY,
                                true,
                                RESEARCH),
                "nlp", new Team("nlp", 1000, Team.UNLIMITED, 1, 0));
        mvc = MockMvcBuilders.standaloneSetup(new UsageController(recorder, () -> teams, CLOCK))
                .setControllerAdvice(new RestErrors())
                .build();
    }

    private static JobUsageRecord record(JobId job, Map<LocalDate, UsageCounters> days) {
        Instant t = Instant.parse("2026-11-01T00:00:00Z");
        return new JobUsageRecord(job, t, t, days, Map.of());
    }

    @Test
    void perTeamOverTheLastSevenDaysByDefault() throws Exception {
        mvc.perform(get("/api/v1/usage"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$", hasSize(1))) // nlp's day is older than a week
                .andExpect(jsonPath("$[0].team").value("vision"))
                .andExpect(jsonPath("$[0].department").value("research"))
                .andExpect(jsonPath("$[0].job").value(nullValue()))
                .andExpect(jsonPath("$[0].allocatedGpuHours").value(9.0))
                .andExpect(jsonPath("$[0].inQuotaGpuHours").value(3.0))
                .andExpect(jsonPath("$[0].borrowedGpuHours").value(6.0))
                .andExpect(jsonPath("$[0].usedGpuHours").value(4.5))
                .andExpect(jsonPath("$[0].idleGpuHours").value(4.5))
                .andExpect(jsonPath("$[0].utilization").value(0.5))
                .andExpect(jsonPath("$[0].usedMemoryGibHours").value(3.0));
    }

    @Test
    void perJobAndPerDepartmentOverAChosenRange() throws Exception {
        mvc.perform(get("/api/v1/usage")
                        .param("from", "2026-11-01")
                        .param("to", "2026-12-01")
                        .param("groupBy", "job"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$", hasSize(2)))
                .andExpect(jsonPath("$[0].team").value("nlp"))
                .andExpect(jsonPath("$[0].department").value(nullValue()))
                .andExpect(jsonPath("$[1].job").value("notebook"))
                .andExpect(jsonPath("$[1].allocatedGpuHours").value(3.0));
        mvc.perform(get("/api/v1/usage").param("from", "2026-11-01").param("groupBy", "Department"))
                .andExpect(jsonPath("$", hasSize(2)))
                .andExpect(jsonPath("$[1].department").value("research"))
                .andExpect(jsonPath("$[1].team").value(nullValue()))
                .andExpect(jsonPath("$[1].allocatedGpuHours").value(9.0));
    }

    @Test
    void csvWithAcceptTextCsv() throws Exception {
        mvc.perform(get("/api/v1/usage").param("groupBy", "job").header("Accept", "text/csv"))
                .andExpect(status().isOk())
                .andExpect(header().string("Content-Type", "text/csv;charset=UTF-8"))
                .andExpect(header().string(
                                "Content-Disposition",
                                "attachment; filename=\"quotient-usage-2026-11-27-2026-12-03.csv\""))
                .andExpect(content()
                        .string(String.join(
                                "\r\n",
                                String.join(",", UsageView.COLUMNS),
                                "research,vision,notebook,6.0000,2.0000,4.0000,3.0000,3.0000,0.0000,0.5000,0.0000,2.0000",
                                "research,vision,trainer,3.0000,1.0000,2.0000,1.5000,1.5000,0.0000,0.5000,0.0000,1.0000",
                                "")));
    }

    @Test
    void badRequestsNameTheirField() throws Exception {
        mvc.perform(get("/api/v1/usage").param("from", "yesterday"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("from"));
        mvc.perform(get("/api/v1/usage").param("to", "2026-13-01"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("to"));
        mvc.perform(get("/api/v1/usage").param("from", "2026-12-03").param("to", "2026-12-01"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("from"));
        mvc.perform(get("/api/v1/usage").param("from", "2024-01-01").param("to", "2026-12-01"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("from"));
        mvc.perform(get("/api/v1/usage").param("groupBy", "node"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("groupBy"));
    }

    @Test
    void perDayBucketsGiveOneRowPerTeamAndDay() throws Exception {
        mvc.perform(get("/api/v1/usage").param("from", "2026-11-01").param("bucket", "day"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$", hasSize(3)))
                .andExpect(jsonPath("$[0].team").value("nlp"))
                .andExpect(jsonPath("$[0].bucket").value("2026-11-20T00:00:00Z"))
                .andExpect(jsonPath("$[1].team").value("vision"))
                .andExpect(jsonPath("$[1].bucket").value("2026-12-01T00:00:00Z"))
                .andExpect(jsonPath("$[1].allocatedGpuHours").value(3.0))
                .andExpect(jsonPath("$[2].bucket").value("2026-12-02T00:00:00Z"))
                .andExpect(jsonPath("$[2].allocatedGpuHours").value(6.0))
                .andExpect(jsonPath("$[2].usedGpuHours").value(3.0));
        // without a bucket the rows carry none (the answer is as before)
        mvc.perform(get("/api/v1/usage")).andExpect(jsonPath("$[0].bucket").doesNotExist());
    }

    @Test
    void perHourBucketsComeFromTheHourlyCounters() throws Exception {
        UsageCounters hour = new UsageCounters(7200, 0, 7200, 0, 1800, 7200, 7200, 0); // 2 GPUs, a quarter busy
        Instant t = Instant.parse("2026-12-03T00:00:00Z");
        store.save(List.of(new JobUsageRecord(
                new JobId("nlp", "sweep"),
                t,
                t,
                Map.of(LocalDate.parse("2026-12-03"), hour.plus(hour)),
                Map.of(),
                Map.of(Instant.parse("2026-12-03T09:00:00Z"), hour, Instant.parse("2026-12-03T11:00:00Z"), hour))));

        mvc.perform(get("/api/v1/usage")
                        .param("from", "2026-12-03")
                        .param("groupBy", "job")
                        .param("bucket", "HOUR"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$", hasSize(2)))
                .andExpect(jsonPath("$[0].job").value("sweep"))
                .andExpect(jsonPath("$[0].bucket").value("2026-12-03T09:00:00Z"))
                .andExpect(jsonPath("$[0].allocatedGpuHours").value(2.0))
                .andExpect(jsonPath("$[0].usedGpuHours").value(0.5))
                .andExpect(jsonPath("$[0].idleGpuHours").value(1.5))
                .andExpect(jsonPath("$[1].bucket").value("2026-12-03T11:00:00Z"));
        mvc.perform(get("/api/v1/usage")
                        .param("from", "2026-12-03")
                        .param("bucket", "hour")
                        .header("Accept", "text/csv"))
                .andExpect(status().isOk())
                .andExpect(content()
                        .string(String.join(
                                "\r\n",
                                "bucket," + String.join(",", UsageView.COLUMNS),
                                "2026-12-03T09:00:00Z,,nlp,,2.0000,2.0000,0.0000,0.5000,1.5000,0.0000,0.2500,0.0000,0.0000",
                                "2026-12-03T11:00:00Z,,nlp,,2.0000,2.0000,0.0000,0.5000,1.5000,0.0000,0.2500,0.0000,0.0000",
                                "")));
    }

    @Test
    void aBadBucketIsRefusedNamingItsFieldAndChangesNothing() throws Exception {
        List<JobUsageRecord> before = store.loadAll();
        mvc.perform(get("/api/v1/usage").param("bucket", "week"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("bucket"))
                .andExpect(jsonPath("$.reason").value(containsString("'week' is not a bucket; use one of hour, day")));
        mvc.perform(get("/api/v1/usage").param("bucket", ""))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("bucket"));
        // hours are kept for 8 days: 2026-11-26 .. 2026-12-03
        mvc.perform(get("/api/v1/usage").param("from", "2026-11-25").param("bucket", "hour"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("from"))
                .andExpect(jsonPath("$.reason").value(containsString("ask from 2026-11-26 or later")));
        mvc.perform(get("/api/v1/usage").param("from", "2026-11-26").param("bucket", "hour"))
                .andExpect(status().isOk());
        assertThat(store.loadAll()).isEqualTo(before);
    }

    /** A cluster with nothing in it (the controller never asks it; the recorder only does on the leader). */
    private static final class NoCluster implements ClusterObserver {
        @Override
        public List<NodeSpec> nodes() {
            return List.of();
        }

        @Override
        public Optional<Set<String>> existingNodes() {
            return Optional.empty();
        }

        @Override
        public Set<String> fractionReadyNodes() {
            return Set.of();
        }

        @Override
        public Map<GpuSlot, String> reservations() {
            return Map.of();
        }

        @Override
        public Map<JobId, WorkloadPhase> workloads() {
            return Map.of();
        }
    }
}
