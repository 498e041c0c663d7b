package io.quotient.access;

/**
 * One question to the authorizer: may the caller {@code verb} the {@code resource} of {@code group} in
 * {@code namespace} (and, when not null, the object {@code name})?
 */
public record AccessRequest(String verb, String group, String resource, String namespace, String name) {

    /** How an answer names what was refused: {@code create gpujobs.quotient.io in namespace team-a}. */
    public String describe() {
        return verb + " " + resource + (group.isEmpty() ? "" : "." + group) + (name == null ? "" : " '" + name + "'")
                + " in namespace " + namespace;
    }
}
