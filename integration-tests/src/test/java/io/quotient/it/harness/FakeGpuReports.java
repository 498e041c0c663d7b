package io.quotient.it.harness;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;

/**
 * Fake GPUs and the node enforcer's {@code quotient.io/gpu-report} about them. The UUID scheme is the one
 * of {@code bin/fake-gpu-node}: a name-based UUID of {@code "<node>/<index>"}, so a node gets the same
 * GPUs whichever made it.
 */
public final class FakeGpuReports {

    static final String FAKE_DRIVER_VERSION = "fake-550.00";

    private FakeGpuReports() {}

    public static String gpuUuid(String nodeName, int index) {
        return "GPU-" + UUID.nameUUIDFromBytes((nodeName + "/" + index).getBytes(StandardCharsets.UTF_8));
    }

    static List<String> gpuUuids(String nodeName, int gpus) {
        return IntStream.range(0, gpus).mapToObj(i -> gpuUuid(nodeName, i)).toList();
    }

    /** A ready report with every GPU idle. */
    static String readyReport(String nodeName, FakeGpuNodeSpec spec, Instant now) {
        JsonObject report = new JsonObject();
        report.addProperty("ready", true);
        report.addProperty("reason", "");
        report.addProperty("updatedAt", now.truncatedTo(ChronoUnit.SECONDS).toString());
        report.addProperty("driverVersion", FAKE_DRIVER_VERSION);
        JsonArray gpus = new JsonArray();
        for (int i = 0; i < spec.gpus(); i++) {
            JsonObject gpu = new JsonObject();
            gpu.addProperty("index", i);
            gpu.addProperty("uuid", gpuUuid(nodeName, i));
            gpu.addProperty("model", spec.model());
            gpu.addProperty("memoryTotalMib", spec.gpuMemoryMib());
            gpu.addProperty("memoryUsedMib", 0);
            gpus.add(gpu);
        }
        report.add("gpus", gpus);
        return report.toString();
    }

    /** The same report with a new {@code updatedAt}, everything else (a test's edits included) kept. */
    static String refreshed(String report, Instant now) {
        JsonObject json = JsonParser.parseString(report).getAsJsonObject();
        json.addProperty("updatedAt", now.truncatedTo(ChronoUnit.SECONDS).toString());
        return json.toString();
    }

    static Instant updatedAt(String report) {
        return Instant.parse(JsonParser.parseString(report)
                .getAsJsonObject()
                .get("updatedAt")
                .getAsString());
    }

    /** The GPU UUIDs a report lists, in index order. */
    static List<String> uuidsIn(String report) {
        List<String> uuids = new ArrayList<>();
        JsonObject json = JsonParser.parseString(report).getAsJsonObject();
        if (json.has("gpus")) {
            json.getAsJsonArray("gpus")
                    .forEach(gpu -> uuids.add(gpu.getAsJsonObject().get("uuid").getAsString()));
        }
        return uuids;
    }
}
