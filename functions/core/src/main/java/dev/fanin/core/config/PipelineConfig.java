package dev.fanin.core.config;

import java.time.Duration;
import java.util.List;

/**
 * One pipeline: which messages it takes, how it groups them into windows, when a window closes and what it emits.
 *
 * <p>Invariants guaranteed by {@link ConfigLoader}: {@code triggers.maxLifetime} is positive and finite, so every
 * window closes by processing time at the latest; the watermark advances on an idle pipeline
 * ({@code watermark.idleAfter} is finite); bounds are positive.
 *
 * @param name            unique, [a-z0-9-]{1,40}
 * @param match           which messages belong to this pipeline (first matching pipeline wins)
 * @param envelope        where the payload is inside the SQS message body
 * @param key             one or more values (paths, optionally with an extract regex) which, joined, form the group key
 * @param eventId         path of the event id used for dedupe; null means the SQS message id (never null for S3,
 *                        where the loader defaults it to {@code $.s3.object.key}: one message carries several records)
 * @param eventTime       where event time comes from, and the fallback
 * @param window          tumbling, sliding or session
 * @param triggers        close triggers besides the window's own event-time end
 * @param watermark       bounded out-of-orderness and idle advance
 * @param allowedLateness how long after a window's end (in event time) late events still correct it
 * @param late            what happens to late and too-late events
 * @param incomplete      what happens when a time-based trigger fires before the window is complete
 * @param aggregations    what each emitted aggregate carries
 * @param bounds          state bounds and admission control
 * @param emit            where aggregates go
 * @param retention       how long a closed window's item is kept (for dedupe and audit) before TTL deletes it
 */
public record PipelineConfig(
        String name,
        MatchRule match,
        Envelope envelope,
        List<ValueRef> key,
        FieldPath eventId,
        EventTimeSpec eventTime,
        WindowSpec window,
        TriggerSpec triggers,
        WatermarkSpec watermark,
        Duration allowedLateness,
        LatePolicy late,
        IncompletePolicy incomplete,
        List<AggregationSpec> aggregations,
        Bounds bounds,
        EmitTarget emit,
        Duration retention) {

    public PipelineConfig {
        key = List.copyOf(key);
        aggregations = List.copyOf(aggregations);
    }

    /**
     * The retention applied to closed windows: {@code retention}, but at least {@code eventTime.maxPast +
     * eventTime.maxFuture} plus {@link #spanPastLifetime()}. Intake takes an event at most maxFuture before its event
     * time and at most maxPast after, so a window is created no earlier than its start - maxFuture and takes events
     * until its end + maxPast; its items expire at creation + maxLifetime + allowedLateness + correctionDelay + lease +
     * this retention, which is after that. So a redelivered duplicate or an event a count closed the window before
     * always finds its window (and its ids) still stored; deleting it sooner would let the event open the window again
     * and fire the same aggregate id a second time. (A session's id is its start, so its end needs nothing more.)
     */
    public Duration effectiveRetention() {
        if (eventTime == null || eventTime.maxPast() == null || eventTime.maxFuture() == null) {
            return retention;
        }
        Duration intakeHorizon = eventTime.maxPast().plus(eventTime.maxFuture()).plus(spanPastLifetime());
        return intakeHorizon.compareTo(retention) > 0 ? intakeHorizon : retention;
    }

    /**
     * How much a time window's span outlasts {@code triggers.maxLifetime} (allowed when a count, expected or sentinel
     * trigger can close it sooner, e.g. a day's window closed by a count within the hour); zero otherwise.
     */
    public Duration spanPastLifetime() {
        Duration span = window instanceof WindowSpec.Tumbling tumbling ? tumbling.size()
                : window instanceof WindowSpec.Sliding sliding ? sliding.size() : Duration.ZERO;
        Duration past = span.minus(triggers.maxLifetime());
        return past.isNegative() ? Duration.ZERO : past;
    }

    /**
     * Whether {@code other} defines this pipeline, perhaps under another name: every field but the name is the same,
     * compared as text (a pattern has no equality of its own). A pipeline removed and one added with the same
     * definition is a rename.
     */
    public boolean sameDefinitionAs(PipelineConfig other) {
        PipelineConfig renamed = new PipelineConfig(other.name(), match, envelope, key, eventId, eventTime, window, triggers,
                watermark, allowedLateness, late, incomplete, aggregations, bounds, emit, retention);
        return renamed.toString().equals(other.toString());
    }

    /** True when the pipeline can tell whether a window is complete (an expected count or a sentinel). */
    public boolean knowsCompleteness() {
        return triggers.expected() != null || triggers.sentinel() != null;
    }

    /** True when the pipeline holds incomplete windows instead of firing them (HOLD, and it knows what complete means). */
    public boolean holdsIncomplete() {
        return knowsCompleteness() && incomplete.mode() == IncompletePolicy.Mode.HOLD;
    }
}
