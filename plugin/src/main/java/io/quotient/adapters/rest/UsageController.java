package io.quotient.adapters.rest;

import io.quotient.core.request.RequestException;
import io.quotient.core.usage.JobUsageRecord;
import io.quotient.core.usage.UsageBucket;
import io.quotient.core.usage.UsageGrouping;
import io.quotient.core.usage.UsageSummary;
import io.quotient.deploy.port.TeamsSource;
import io.quotient.usage.UsageRecorder;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
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

    private static final Pattern DAY = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}");

    private final UsageRecorder usage;
    private final TeamsSource teams;
    private final Clock clock;

    public UsageController(UsageRecorder usage, TeamsSource teams, Clock clock) {
        this.usage = usage;
        this.teams = teams;
        this.clock = clock;
    }

    /** A range of days, a grouping and, for figures over time, a bucket (null: totals), as asked (checked). */
    private record Query(LocalDate from, LocalDate to, UsageGrouping groupBy, UsageBucket bucket) {}

    @Operation(
            summary = "GPU-hours allocated (in quota, borrowed), used and idle per team, job or department, "
                    + "from and to UTC days inclusive (default: the last 7 days); with bucket=hour|day one row per "
                    + "group and UTC hour or day (hours only for the last " + JobUsageRecord.HOURLY_DAYS + " days)")
    @GetMapping(value = "/usage", produces = MediaType.APPLICATION_JSON_VALUE)
    public List<UsageView> usage(
            @RequestParam(required = false) String from,
            @RequestParam(required = false) String to,
            @RequestParam(defaultValue = "team") String groupBy,
            @Parameter(description = "hour or day: figures over time, one row per group and bucket")
                    @RequestParam(required = false)
                    String bucket) {
        return rows(query(from, to, groupBy, bucket));
    }

    @GetMapping(value = "/usage", produces = CSV)
    public ResponseEntity<String> usageCsv(
            @RequestParam(required = false) String from,
            @RequestParam(required = false) String to,
            @RequestParam(defaultValue = "team") String groupBy,
            @RequestParam(required = false) String bucket) {
        Query query = query(from, to, groupBy, bucket);
        StringBuilder csv = new StringBuilder(query.bucket() == null ? "" : "bucket,")
                .append(String.join(",", UsageView.COLUMNS))
                .append("\r\n");
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
        List<UsageSummary.Row> rows = query.bucket() == null
                ? UsageSummary.of(usage.records(), query.from(), query.to(), query.groupBy(), departments)
                : UsageSummary.over(
                        usage.records(), query.from(), query.to(), query.groupBy(), query.bucket(), departments);
        return rows.stream().map(UsageView::of).toList();
    }

    private Query query(String from, String to, String groupBy, String bucket) {
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
        UsageGrouping grouping = UsageGrouping.parse(groupBy);
        UsageBucket cut = bucket == null ? null : UsageBucket.parse(bucket);
        LocalDate firstHourly = JobUsageRecord.firstHourlyDay(LocalDate.now(clock.withZone(ZoneOffset.UTC)));
        if (cut == UsageBucket.HOUR && start.isBefore(firstHourly)) {
            throw new RequestException(
                    "from",
                    "hourly figures are kept for the last " + JobUsageRecord.HOURLY_DAYS + " UTC days; with"
                            + " bucket=hour ask from " + firstHourly + " or later, or use bucket=day");
        }
        return new Query(start, end, grouping, cut);
    }

    /**
     * A day exactly as {@code YYYY-MM-DD}: a year of four digits, nothing around it. ISO's signed years
     * ({@code +999999999-12-31}, {@code -999999999-01-01}) lie at the ends of the calendar, where the range's arithmetic
     * fails; and a NUL or line break that trimming would drop is not a day either.
     */
    private static LocalDate day(String field, String value) {
        try {
            if (!DAY.matcher(value).matches()) {
                throw new DateTimeParseException("not YYYY-MM-DD", value, 0);
            }
            return LocalDate.parse(value);
        } catch (DateTimeParseException e) {
            throw new RequestException(
                    field, "'" + UsageGrouping.excerpt(value) + "' is not a day; write it as YYYY-MM-DD (UTC)");
        }
    }
}
