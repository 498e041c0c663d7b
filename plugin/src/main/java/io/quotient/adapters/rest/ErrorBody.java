package io.quotient.adapters.rest;

/**
 * Every error answer: what happened, which field (null when none), why, and what to do.
 *
 * @param error  short kind of the error ({@code invalid request}, {@code unknown team}, ...)
 * @param field  the request field at fault, as written in the request ({@code gpu.fraction}); may be null
 * @param reason why it was refused; nothing was created or changed
 * @param hint   what to do about it
 */
public record ErrorBody(String error, String field, String reason, String hint) {}
