package io.quotient.enforcer.core;

/** A memory budget in bytes on one concrete GPU. */
public record ResolvedBudget(long requestBytes, long limitBytes) {}
