package io.quotient.adapters.k8s;

import io.kubernetes.client.common.KubernetesObject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * An informer cache overlaid with this process's own writes until the cache has caught up with them, so that a
 * decision right after a write sees that write (an informer lags the API server by a few milliseconds, enough
 * to book the same GPU twice). Resource versions are compared as numbers (etcd revisions, as every Kubernetes
 * API server uses); an overlay entry is dropped once the cache holds the same or a newer version, or after
 * {@code maxAge} as a safety net.
 *
 * @param <T> the resource type
 */
public final class ReadYourWrites<T extends KubernetesObject> {

    private record Entry<T>(T object, String resourceVersion, Instant at) {
        public boolean deleted() {
            return object == null;
        }
    }

    private final Function<String, T> cacheByName;
    private final Supplier<List<T>> cacheList;
    private final Clock clock;
    private final Duration maxAge;
    private final Map<String, Entry<T>> overlay = new ConcurrentHashMap<>();

    public ReadYourWrites(Function<String, T> cacheByName, Supplier<List<T>> cacheList, Clock clock, Duration maxAge) {
        this.cacheByName = cacheByName;
        this.cacheList = cacheList;
        this.clock = clock;
        this.maxAge = maxAge;
    }

    /** The cache key of an object: {@code namespace/name}, or the name of a cluster-scoped one (the informers' keys). */
    public static String keyOf(KubernetesObject object) {
        String namespace = object.getMetadata().getNamespace();
        return namespace == null || namespace.isEmpty()
                ? object.getMetadata().getName()
                : namespace + "/" + object.getMetadata().getName();
    }

    /** Remembers an object this process has just written (the API server's answer). */
    public void written(T object) {
        overlay.put(keyOf(object), new Entry<>(object, object.getMetadata().getResourceVersion(), clock.instant()));
    }

    /** Remembers that this process has just deleted the object (by key) that had {@code resourceVersion}. */
    public void deleted(String name, String resourceVersion) {
        overlay.put(name, new Entry<>(null, resourceVersion, clock.instant()));
    }

    /** The informer has seen the deletion of this object: a pending tombstone or write is settled. */
    public void cacheDeleted(T object) {
        String name = keyOf(object);
        overlay.computeIfPresent(
                name, (n, e) -> atLeast(object.getMetadata().getResourceVersion(), e.resourceVersion) ? null : e);
    }

    /** The object as this process last knew it: its own newer write, or the cache; null when absent or deleted. */
    public T get(String name) {
        return resolve(name, cacheByName.apply(name));
    }

    public List<T> list() {
        Map<String, T> cached = new LinkedHashMap<>();
        for (T object : cacheList.get()) {
            cached.put(keyOf(object), object);
        }
        Set<String> names = new LinkedHashSet<>(cached.keySet());
        names.addAll(overlay.keySet());
        List<T> result = new ArrayList<>(names.size());
        for (String name : names) {
            T object = resolve(name, cached.get(name));
            if (object != null) {
                result.add(object);
            }
        }
        return result;
    }

    int overlaySize() {
        return overlay.size();
    }

    private T resolve(String name, T cached) {
        Entry<T> entry = overlay.get(name);
        if (entry == null) {
            return cached;
        }
        if (entry.at.plus(maxAge).isBefore(clock.instant())) {
            overlay.remove(name, entry);
            return cached;
        }
        String cachedVersion = cached == null ? null : cached.getMetadata().getResourceVersion();
        if (entry.deleted()) {
            // a cached object newer than the deleted one was created again after our delete
            return cachedVersion != null && newer(cachedVersion, entry.resourceVersion) ? cached : null;
        }
        if (cachedVersion != null && atLeast(cachedVersion, entry.resourceVersion)) {
            overlay.remove(name, entry);
            return cached;
        }
        return entry.object;
    }

    private static boolean atLeast(String version, String than) {
        return version.equals(than) || newer(version, than);
    }

    private static boolean newer(String version, String than) {
        try {
            return Long.parseLong(version) > Long.parseLong(than);
        } catch (NumberFormatException e) {
            return false; // not an etcd revision: only equality can tell the cache caught up
        }
    }
}
