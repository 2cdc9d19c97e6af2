package dev.fanin.core.service;

/**
 * What one sweep run did.
 *
 * @param visited                 due windows visited
 * @param claimed                 revisions claimed (closed) by this run
 * @param overdue                 windows found due for longer than {@code overdueAfter}
 * @param oldestOpenAgeSeconds    age of the oldest open window seen (every open window past its hard deadline is due,
 *                                so a window that fails to close always shows here)
 * @param exhausted               true when the run stopped at its budget with due windows left for the next run
 */
public record SweepReport(int visited, int claimed, int overdue, long oldestOpenAgeSeconds, boolean exhausted) { }
