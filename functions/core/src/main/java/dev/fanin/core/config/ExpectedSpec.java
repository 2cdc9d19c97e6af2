package dev.fanin.core.config;

/**
 * How many events a complete window has, and optionally which ones.
 *
 * @param count      a static expected count (null when carried by events)
 * @param countPath  a field carrying the expected count on events, e.g. {@code $.shardCount} (null when static)
 * @param memberPath a field naming the member an event stands for, e.g. the shard index, so that the aggregate can
 *                   name the missing members; members are integers {@code firstMember .. firstMember+count-1}
 * @param firstMember the lowest member number (0 or 1 usually)
 */
public record ExpectedSpec(Integer count, FieldPath countPath, FieldPath memberPath, int firstMember) { }
