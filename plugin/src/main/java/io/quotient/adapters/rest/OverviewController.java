package io.quotient.adapters.rest;

import io.quotient.deploy.Reports;
import io.swagger.v3.oas.annotations.Operation;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Read-only views of the teams' quotas and the cluster's GPUs. */
@RestController
@RequestMapping(path = "/api/v1", produces = MediaType.APPLICATION_JSON_VALUE)
public class OverviewController {

    private final Reports reports;

    public OverviewController(Reports reports) {
        this.reports = reports;
    }

    @Operation(summary = "Every team: quota, GPUs held in quota and borrowed, waiting jobs")
    @GetMapping("/teams")
    public List<TeamView> teams() {
        return reports.teams().stream().map(TeamView::of).toList();
    }

    @Operation(summary = "Nodes and GPUs: the share each job holds, free shares, fragmentation")
    @GetMapping("/cluster")
    public ClusterView cluster() {
        return ClusterView.of(reports.cluster());
    }
}
