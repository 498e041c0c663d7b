package io.quotient.adapters.rest;

import java.util.Optional;

/**
 * Which request paths the service serves at all: the canonical spelling only. Every name in the API (team, job,
 * template, page) is made of unreserved characters, so a path needs no percent-encoding, no matrix parameters
 * ({@code ;x=1}), no dot segments, no empty segments and no trailing '/'. Any other spelling is refused before anything is decided
 * on it: the servlet container, Spring MVC and the authorization would otherwise each decode or strip it their own
 * way, and a name that one of them reads as {@code team-a} could pass another's check as something else.
 */
public final class CanonicalPaths {

    /** Longer paths than this are refused; the longest real path is far shorter (names are at most 63 characters). */
    public static final int MAX_LENGTH = 1024;

    private CanonicalPaths() {}

    /**
     * @param path the request path as received (not decoded), without the query string
     * @return why the path is refused, or empty when it is canonical
     */
    public static Optional<String> problem(String path) {
        if (path.isEmpty() || path.charAt(0) != '/') {
            return Optional.of("the path must start with '/'");
        }
        if (path.length() > MAX_LENGTH) {
            return Optional.of("the path is longer than " + MAX_LENGTH + " characters");
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '%') {
                return Optional.of("the path contains a percent-encoded character; names in this API need no"
                        + " encoding, spell them as they are");
            }
            if (c == ';') {
                return Optional.of("the path contains ';' (a matrix parameter); this API takes none");
            }
            if (!allowed(c)) {
                return Optional.of(
                        "the path contains the character " + visible(c) + ", which no path of this API" + " has");
            }
        }
        String[] segments = path.substring(1).split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            if (segment.equals(".") || segment.equals("..")) {
                return Optional.of("the path contains a dot segment ('" + segment + "')");
            }
            if (segment.isEmpty() && i < segments.length - 1) {
                return Optional.of("the path contains an empty segment ('//')");
            }
            // no path but the root ends in '/': the static pages and the actuator served /index.html/ and
            // /actuator/health/ as their path without it, while the API answered 404, so one spelling was two
            if (segment.isEmpty() && segments.length > 1) {
                return Optional.of("the path ends in '/', which only the root '/' does; leave the trailing '/' out");
            }
        }
        return Optional.empty();
    }

    /** RFC 3986 unreserved characters, '/', and the sub-delimiters other than ';' that a static page name may use. */
    private static boolean allowed(char c) {
        return c >= 'a' && c <= 'z'
                || c >= 'A' && c <= 'Z'
                || c >= '0' && c <= '9'
                || "-._~/!$&'()*+,=:@".indexOf(c) >= 0;
    }

    private static String visible(char c) {
        return c < 0x20 || c > 0x7e ? String.format("U+%04X", (int) c) : "'" + c + "'";
    }
}
