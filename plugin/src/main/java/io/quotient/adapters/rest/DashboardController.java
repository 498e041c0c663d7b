package io.quotient.adapters.rest;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.QuotaState;
import io.quotient.core.request.RequestException;
import io.quotient.deploy.Reports;
import io.quotient.deploy.port.EventHistory;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobRecordStore;
import io.swagger.v3.oas.annotations.Operation;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The dashboard's data in one read-only answer (the page at {@code /} polls it), so that the bars, the GPU map and
 * the pending list drawn together come from the same moment.
 */
@RestController
@RequestMapping(path = "/api/v1", produces = MediaType.APPLICATION_JSON_VALUE)
public class DashboardController {

    /** More events than a person reads in one glance; the page scrolls them. */
    static final int MAX_EVENTS = 500;

    private final Reports reports;
    private final JobRecordStore store;
    private final EventHistory events;
    private final Clock clock;

    public DashboardController(Reports reports, JobRecordStore store, EventHistory events, Clock clock) {
        this.reports = reports;
        this.store = store;
        this.events = events;
        this.clock = clock;
    }

    @Operation(summary = "The dashboard's view: teams, the GPU map, pending jobs with reasons, recent events")
    @GetMapping("/dashboard")
    public DashboardView dashboard(@RequestParam(defaultValue = "100") int events) {
        if (events < 0 || events > MAX_EVENTS) {
            // said, not clamped: a caller asking for 100,000 events would otherwise read 500 as all there are
            throw new RequestException("events", "must be from 0 to " + MAX_EVENTS + " (the latest events shown)");
        }
        ClusterView cluster = ClusterView.of(reports.cluster());
        long gpuMemoryMib =
                cluster.nodes().isEmpty() ? 0 : cluster.nodes().get(0).gpuMemoryMib();
        Map<String, DashboardView.PlacedView> placed = new LinkedHashMap<>();
        List<DashboardView.PendingView> pending = new ArrayList<>();
        Map<JobId, QuotaState> quotaStates = reports.currentQuotaStates();
        for (JobRecord r : store.listAll()) {
            if (r.phase().waiting()) {
                pending.add(new DashboardView.PendingView(
                        r.id().team(),
                        r.id().name(),
                        r.phase().wireName(),
                        gpusAsked(r.spec().gpu(), gpuMemoryMib),
                        r.status().reason(),
                        r.createdAt()));
            } else if (quotaStates.containsKey(r.id())) {
                placed.put(
                        r.id().team() + "/" + r.id().name(),
                        new DashboardView.PlacedView(
                                quotaStates.get(r.id()).wireName(),
                                limitPerGpu(r.spec().gpu(), gpuMemoryMib),
                                r.status().idle() == null
                                        ? null
                                        : r.status().idle().message()));
            }
        }
        pending.sort(Comparator.comparing(
                DashboardView.PendingView::createdAt, Comparator.nullsLast(Comparator.naturalOrder())));
        return new DashboardView(
                clock.instant(),
                reports.teams().stream().map(TeamView::of).toList(),
                cluster,
                placed,
                pending,
                this.events.recent(events).stream()
                        .map(DashboardView.EventView::of)
                        .toList());
    }

    static double gpusAsked(GpuRequest gpu, long gpuMemoryMib) {
        if (gpu instanceof GpuRequest.WholeGpus whole) {
            return whole.count();
        } else if (gpu instanceof GpuRequest.Fraction f) {
            return f.devices() * f.milli() / 1000.0;
        } else if (gpu instanceof GpuRequest.Memory m && gpuMemoryMib > 0) {
            return m.devices() * Math.min(1.0, (double) m.mib() / gpuMemoryMib);
        }
        return 0;
    }

    private static Double limitPerGpu(GpuRequest gpu, long gpuMemoryMib) {
        if (gpu instanceof GpuRequest.Fraction f) {
            return f.limitMilli() / 1000.0;
        } else if (gpu instanceof GpuRequest.Memory m && gpuMemoryMib > 0) {
            return Math.min(1.0, (double) m.limitMib() / gpuMemoryMib);
        }
        return null;
    }
}
