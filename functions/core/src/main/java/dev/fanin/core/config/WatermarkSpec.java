package dev.fanin.core.config;

import java.time.Duration;

/**
 * The pipeline's event-time watermark.
 *
 * @param outOfOrderness how far behind the newest event time an on-time event may be
 * @param idleAfter      after this much processing time without any event, the watermark advances with
 *                       processing time; always finite, so an idle pipeline still closes its windows
 */
public record WatermarkSpec(Duration outOfOrderness, Duration idleAfter) { }
