package dev.fanin.core.config;

import java.time.Duration;

/**
 * Close triggers. The window's own event-time end (watermark passing {@code end}, or the session gap) always closes
 * it; these add earlier closes and the hard limit.
 *
 * @param count       close when this many distinct events are in the window (null: no count trigger)
 * @param expected    expected-count completeness (null: none)
 * @param sentinel    an end-of-batch event (null: none)
 * @param maxLifetime hard maximum lifetime in processing time from the window's creation; always set and finite
 */
public record TriggerSpec(Integer count, ExpectedSpec expected, SentinelSpec sentinel, Duration maxLifetime) { }
