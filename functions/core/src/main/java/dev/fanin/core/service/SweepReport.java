package dev.fanin.core.service;

/**
 * What one sweep run did.
 *
 * @param visited                 due windows visited
 * @param claimed                 revisions claimed (closed) by this run
 * @param overdue                 windows found due for longer than {@code overdueAfter}
 * @param oldestOpenAgeSeconds    age of the oldest open window seen (every open window past its hard deadline is due,
 *                                so a window that fails to close always shows here)
 * @param secondsPastHardDeadline how far the window seen furthest past its own hard deadline without its first close
 *                                committed is past it (0: none is); every window must close by its deadline, so this
 *                                measures "windows not closing" whatever each pipeline's lifetime is
 * @param exhausted               true when the run stopped at its budget with due windows left for the next run
 */
public record SweepReport(int visited, int claimed, int overdue, long oldestOpenAgeSeconds, long secondsPastHardDeadline,
                          boolean exhausted) { }
