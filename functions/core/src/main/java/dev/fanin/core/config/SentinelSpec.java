package dev.fanin.core.config;

/**
 * An end-of-batch event, such as an upload manifest or a {@code _SUCCESS} object.
 *
 * @param when              the predicate that identifies the sentinel
 * @param expectedCount     where the sentinel carries the expected count (null: the sentinel alone completes)
 * @param countsAsEvent     whether the sentinel itself counts toward {@code seen} and the aggregations
 */
public record SentinelSpec(Condition when, ValueRef expectedCount, boolean countsAsEvent) { }
