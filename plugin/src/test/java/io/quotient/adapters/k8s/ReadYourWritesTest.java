package io.quotient.adapters.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.quotient.time.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReadYourWritesTest {

    private final Map<String, V1Pod> cache = new HashMap<>();
    private final MutableClock clock = new MutableClock(Instant.parse("2024-01-01T00:00:00Z"));
    private final ReadYourWrites<V1Pod> view =
            new ReadYourWrites<>(cache::get, () -> new ArrayList<>(cache.values()), clock, Duration.ofMinutes(5));

    private static V1Pod pod(String name, String version, String marker) {
        return new V1Pod()
                .metadata(new V1ObjectMeta().name(name).resourceVersion(version).putLabelsItem("m", marker));
    }

    @Test
    void ownWriteIsSeenBeforeTheCacheHasIt() {
        view.written(pod("a", "10", "mine"));

        assertThat(view.get("a").getMetadata().getLabels()).containsEntry("m", "mine");
        assertThat(view.list()).hasSize(1);
    }

    @Test
    void ownWriteHidesAnOlderCachedVersionUntilTheCacheCatchesUp() {
        cache.put("a", pod("a", "9", "old"));
        view.written(pod("a", "10", "mine"));
        assertThat(view.get("a").getMetadata().getLabels()).containsEntry("m", "mine");

        cache.put("a", pod("a", "11", "newer"));

        assertThat(view.get("a").getMetadata().getLabels()).containsEntry("m", "newer");
        assertThat(view.overlaySize()).isZero();
    }

    @Test
    void ownDeleteHidesTheCachedObjectUntilTheInformerSeesTheDeletion() {
        V1Pod cached = pod("a", "10", "old");
        cache.put("a", cached);
        view.deleted("a", "10");

        assertThat(view.get("a")).isNull();
        assertThat(view.list()).isEmpty();

        cache.remove("a");
        view.cacheDeleted(cached);
        assertThat(view.overlaySize()).isZero();
    }

    @Test
    void objectCreatedAgainAfterOurDeleteIsVisible() {
        view.deleted("a", "10");
        cache.put("a", pod("a", "15", "recreated"));

        assertThat(view.get("a").getMetadata().getLabels()).containsEntry("m", "recreated");
    }

    @Test
    void overlayEntriesExpireAsASafetyNet() {
        view.written(pod("a", "10", "mine"));
        clock.advance(Duration.ofMinutes(6));

        assertThat(view.get("a")).isNull();
        assertThat(view.overlaySize()).isZero();
    }

    @Test
    void listMergesCacheAndOverlay() {
        cache.put("a", pod("a", "1", "a"));
        cache.put("b", pod("b", "2", "b"));
        view.written(pod("c", "3", "c"));
        view.deleted("b", "2");

        List<String> names = view.list().stream()
                .map(p -> p.getMetadata().getName())
                .sorted()
                .toList();

        assertThat(names).containsExactly("a", "c");
    }
}
