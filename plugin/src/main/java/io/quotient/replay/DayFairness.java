package io.quotient.replay;

import java.time.LocalDate;

/**
 * Jain's fairness index of one day (UTC) of a replay: over the teams entitled to something that day, x = GPU-time
 * held over the day / GPU-time of the fair share over the day, and the index (Σx)² / (n · Σx²).
 *
 * @param jain NaN when no team was entitled to anything that day
 */
public record DayFairness(LocalDate day, double jain) {}
