package io.quotient.adapters.rest;

import io.quotient.core.request.RequestException;
import io.quotient.core.usage.UsageGrouping;
import io.quotient.core.usage.UsageSummary;
import io.quotient.deploy.port.TeamsSource;
import io.quotient.usage.UsageRecorder;
import io.swagger.v3.oas.annotations.Operation;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Showback: GPU-hours allocated, used and idle per team, job or department over whole UTC days, as JSON or, with
 * {@code Accept: text/csv}, CSV. Readable by any authenticated caller, as the quota overview is.
 */
@RestController
@RequestMapping("/api/v1")
public class UsageController {

    /** The longest range one request may cover: a year and a day (a leap year's worth of days). */
    static final int MAX_DAYS = 366;

    static final String CSV = "text/csv";

    private final UsageRecorder usage;
    private final TeamsSource teams;
    private final Clock clock;

    public UsageController(UsageRecorder usage, TeamsSource teams, Clock clock) {
        this.usage = usage;
        this.teams = teams;
        this.clock = clock;
    }

    /** A range of days and a grouping, as the request gave them (checked). */
    private record Query(LocalDate from, LocalDate to, UsageGrouping groupBy) {}

    @Operation(
            summary = "GPU-hours allocated (in quota, borrowed), used and idle per team, job or department, "
                    + "from and to UTC days inclusive (default: the last 7 days)")
    @GetMapping(value = "/usage", produces = MediaType.APPLICATION_JSON_VALUE)
    public List<UsageView> usage(
            @RequestParam(required = false) String from,
            @RequestParam(required = false) String to,
            @RequestParam(defaultValue = "team") String groupBy) {
        return rows(query(from, to, groupBy));
    }

    @GetMapping(value = "/usage", produces = CSV)
    public ResponseEntity<String> usageCsv(
            @RequestParam(required = false) String from,
            @RequestParam(required = false) String to,
            @RequestParam(defaultValue = "team") String groupBy) {
        Query query = query(from, to, groupBy);
        StringBuilder csv = new StringBuilder(String.join(",", UsageView.COLUMNS)).append("\r\n");
        rows(query).forEach(row -> csv.append(row.csvLine()).append("\r\n"));
        return ResponseEntity.ok()
                .contentType(MediaType.parseMediaType(CSV + ";charset=UTF-8"))
                .header(
                        "Content-Disposition",
                        "attachment; filename=\"quotient-usage-" + query.from() + "-" + query.to() + ".csv\"")
                .body(csv.toString());
    }

    private List<UsageView> rows(Query query) {
        Map<String, String> departments = UsageSummary.departments(teams.teams().values());
        return UsageSummary.of(usage.records(), query.from(), query.to(), query.groupBy(), departments).stream()
                .map(UsageView::of)
                .toList();
    }

    private Query query(String from, String to, String groupBy) {
        LocalDate end = to == null ? LocalDate.now(clock.withZone(ZoneOffset.UTC)) : day("to", to);
        LocalDate start = from == null ? end.minusDays(6) : day("from", from);
        if (start.isAfter(end)) {
            throw new RequestException("from", "from (" + start + ") is after to (" + end + ")");
        }
        if (ChronoUnit.DAYS.between(start, end) + 1 > MAX_DAYS) {
            throw new RequestException(
                    "from",
                    "the range " + start + ".." + end + " covers more than " + MAX_DAYS
                            + " days; ask for a shorter range");
        }
        return new Query(start, end, UsageGrouping.parse(groupBy));
    }

    private static LocalDate day(String field, String value) {
        try {
            return LocalDate.parse(value.trim());
        } catch (DateTimeParseException e) {
            throw new RequestException(
                    field, "'" + UsageGrouping.excerpt(value) + "' is not a day; write it as YYYY-MM-DD (UTC)");
        }
    }
}
