package io.quotient.deploy;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Serialises decisions: one snapshot → plan → apply at a time, so two deploys (or a deploy and a re-queue)
 * never book the same GPU. Reentrant, so a decision may trigger another (a delete re-queues).
 */
public final class DecisionLock {

    private final ReentrantLock lock = new ReentrantLock(true);

    public <T> T decide(Supplier<T> decision) {
        lock.lock();
        try {
            return decision.get();
        } finally {
            lock.unlock();
        }
    }

    public void decide(Runnable decision) {
        decide(() -> {
            decision.run();
            return null;
        });
    }
}
