package io.quotient.it.images;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * An OCI image archive (image layout in a tar, as {@code jib:buildTar} writes it with format OCI) unpacked into a
 * folder: its config, and its layers extracted in order into a root filesystem, as a container runtime would.
 */
record OciImage(Path archive, JsonNode manifest, JsonNode config, Path rootfs) {

    private static final ObjectMapper JSON = new ObjectMapper();

    static OciImage unpack(Path archive, Path into) throws IOException, InterruptedException {
        if (!Files.isRegularFile(archive)) {
            throw new IllegalStateException(archive + " is missing: the images are built in the verify phase of plugin"
                    + " and node-enforcer (mvn -B verify, or mvn -B -DskipTests verify -pl plugin,node-enforcer)");
        }
        Path layout = Files.createDirectories(into.resolve("layout"));
        run(List.of("tar", "-xf", archive.toString(), "-C", layout.toString()));
        JsonNode index = JSON.readTree(layout.resolve("index.json").toFile());
        JsonNode manifest = JSON.readTree(
                blob(layout, index.path("manifests").get(0).path("digest").asText())
                        .toFile());
        JsonNode config = JSON.readTree(
                blob(layout, manifest.path("config").path("digest").asText()).toFile());
        Path rootfs = Files.createDirectories(into.resolve("rootfs"));
        for (JsonNode layer : manifest.path("layers")) {
            run(List.of(
                    "tar",
                    "--warning=no-unknown-keyword",
                    "-xzf",
                    blob(layout, layer.path("digest").asText()).toString(),
                    "-C",
                    rootfs.toString()));
        }
        return new OciImage(archive, manifest, config, rootfs);
    }

    /** The manifest's and the config's media types, for the OCI format check. */
    String mediaTypes() {
        return manifest.path("mediaType").asText() + " "
                + manifest.path("config").path("mediaType").asText();
    }

    List<String> entrypoint() {
        List<String> args = new ArrayList<>();
        config.path("config").path("Entrypoint").forEach(a -> args.add(a.asText()));
        return args;
    }

    String user() {
        return config.path("config").path("User").asText();
    }

    Map<String, String> labels() {
        Map<String, String> labels = new TreeMap<>();
        config.path("config")
                .path("Labels")
                .fields()
                .forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
        return labels;
    }

    Map<String, String> env() {
        Map<String, String> env = new TreeMap<>();
        config.path("config").path("Env").forEach(e -> {
            String[] kv = e.asText().split("=", 2);
            env.put(kv[0], kv.length > 1 ? kv[1] : "");
        });
        return env;
    }

    Path file(String pathInImage) {
        return rootfs.resolve(pathInImage.replaceFirst("^/", ""));
    }

    private static Path blob(Path layout, String digest) {
        return layout.resolve("blobs").resolve(digest.replace(':', '/'));
    }

    static void run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + output);
        }
    }
}
