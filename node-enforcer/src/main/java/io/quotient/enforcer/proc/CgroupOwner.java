package io.quotient.enforcer.proc;

/** The pod UID (with dashes) and the 64-hex container ID a cgroup path names. */
public record CgroupOwner(String podUid, String containerId) {}
