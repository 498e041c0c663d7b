/**
 * The over-time replay ({@code quotient.jar replay}): a discrete-event simulation of a shared cluster in which jobs
 * arrive, wait, run, are preempted and finish, with every decision taken by the scheduling core the service runs
 * ({@link io.quotient.core.scheduling.Scheduler}) at the service's schedules, in simulated time. Pure: no Spring,
 * Kubernetes, Quartz or JNA types; the command line ({@code io.quotient.app.cli.ReplayCommand}) reads the files.
 */
package io.quotient.replay;
