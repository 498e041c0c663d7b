package io.quotient.adapters.k8s;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Runs tasks in the background, in submission order per key and in parallel across keys: tasks of one key go to
 * one of a few single-thread lanes. A job's workload writes (create, then stop) thus never overtake each other.
 */
public final class KeyedSerialExecutor implements AutoCloseable {

    private final ExecutorService[] lanes;

    public KeyedSerialExecutor(int lanes, String name) {
        this.lanes = new ExecutorService[lanes];
        for (int i = 0; i < lanes; i++) {
            String threadName = name + "-" + i;
            this.lanes[i] = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, threadName);
                t.setDaemon(true);
                return t;
            });
        }
    }

    /** Queues the task behind the earlier tasks of its key. */
    public CompletableFuture<Void> submit(Object key, Runnable task) {
        return CompletableFuture.runAsync(task, lanes[Math.floorMod(key.hashCode(), lanes.length)]);
    }

    /** Queues the task behind the earlier tasks of its key and waits for it; its exception is rethrown. */
    public void run(Object key, Runnable task) {
        try {
            submit(key, task).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** Waits until every task queued so far has run. */
    public void drain() {
        CompletableFuture<?>[] marks = new CompletableFuture<?>[lanes.length];
        for (int i = 0; i < lanes.length; i++) {
            marks[i] = CompletableFuture.runAsync(() -> {}, lanes[i]);
        }
        CompletableFuture.allOf(marks).join();
    }

    /** Finishes what is queued (for up to {@code seconds}), then stops the lanes. */
    void close(long seconds) {
        for (ExecutorService lane : lanes) {
            lane.shutdown();
        }
        try {
            for (ExecutorService lane : lanes) {
                lane.awaitTermination(seconds, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        close(10);
    }
}
