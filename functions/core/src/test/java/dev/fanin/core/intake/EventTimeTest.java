package dev.fanin.core.intake;

import static dev.fanin.core.intake.Messages.RECEIVED;
import static dev.fanin.core.intake.Messages.SENT;
import static dev.fanin.core.intake.Messages.json;
import static dev.fanin.core.intake.Messages.message;
import static dev.fanin.core.intake.PipelineFixture.pipeline;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.EventTimeSpec.TimeFallback;
import dev.fanin.core.config.EventTimeSpec.TimeFormat;
import dev.fanin.core.event.Event;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class EventTimeTest {

    private static MessageIntake intake(TimeFormat format) {
        return new MessageIntake(PipelineFixture.config(pipeline("p").eventTime("$.t", format)));
    }

    private static Event accepted(MessageIntake intake, String tJson) {
        IntakeResult result = intake.parse(message("{\"id\":\"k\",\"t\":" + tJson + "}"));
        assertThat(result.rejected()).isEmpty();
        return result.accepted().get(0);
    }

    private static Rejected rejected(MessageIntake intake, String tJson) {
        IntakeResult result = intake.parse(message("{\"id\":\"k\",\"t\":" + tJson + "}"));
        assertThat(result.accepted()).isEmpty();
        return result.rejected().get(0);
    }

    static Stream<Arguments> formats() {
        return Stream.of(
                Arguments.of(TimeFormat.ISO_8601, "\"2026-11-29T09:59:30Z\"", "2026-11-29T09:59:30Z"),
                Arguments.of(TimeFormat.ISO_8601, "\"2026-11-29T10:59:30.250+01:00\"", "2026-11-29T09:59:30.250Z"),
                Arguments.of(TimeFormat.ISO_8601, "\"2026-11-29T04:29:30-05:30\"", "2026-11-29T09:59:30Z"),
                Arguments.of(TimeFormat.EPOCH_MILLIS, "1795946370123", "2026-11-29T09:59:30.123Z"),
                Arguments.of(TimeFormat.EPOCH_MILLIS, "\"1795946370123\"", "2026-11-29T09:59:30.123Z"),
                Arguments.of(TimeFormat.EPOCH_SECONDS, "1795946370", "2026-11-29T09:59:30Z"),
                Arguments.of(TimeFormat.EPOCH_SECONDS, "1795946370.5", "2026-11-29T09:59:30.500Z"),
                Arguments.of(TimeFormat.EPOCH_SECONDS, "1795946370.000001", "2026-11-29T09:59:30.000001Z"),
                Arguments.of(TimeFormat.AUTO, "1795946370123", "2026-11-29T09:59:30.123Z"),
                Arguments.of(TimeFormat.AUTO, "1795946370", "2026-11-29T09:59:30Z"),
                Arguments.of(TimeFormat.AUTO, "1795946370.25", "2026-11-29T09:59:30.250Z"),
                Arguments.of(TimeFormat.AUTO, "\"2026-11-29T09:59:30Z\"", "2026-11-29T09:59:30Z"),
                Arguments.of(TimeFormat.AUTO, "\"1795946370\"", "2026-11-29T09:59:30Z"),
                Arguments.of(TimeFormat.AUTO, "\"1795946370123\"", "2026-11-29T09:59:30.123Z"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("formats")
    void readsEachFormat(TimeFormat format, String tJson, String expected) {
        Event e = accepted(intake(format), tJson);

        assertThat(e.eventTime()).isEqualTo(Instant.parse(expected));
        assertThat(e.eventTimeIsFallback()).isFalse();
        assertThat(e.arrivedAt()).isEqualTo(RECEIVED);
    }

    /** ISO-8601's end of a day is the next day's start, also under the strict reading that refuses February 30. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"2026-11-28T24:00:00Z, 2026-11-29T00:00:00Z", "2026-11-28T24:00Z, 2026-11-29T00:00:00Z",
            "2026-12-31T24:00:00.000+01:00, 2026-12-31T23:00:00Z", "2028-02-28T24:00:00Z, 2028-02-29T00:00:00Z"})
    void theEndOfADayIsTheNextDaysStart(String written, String expected) {
        assertThat(accepted(intake(TimeFormat.ISO_8601), "\"" + written + "\"").eventTime()).isEqualTo(Instant.parse(expected));
    }

    @Test
    void autoSplitsMillisFromSecondsAbove1e11() {
        MessageIntake noRange = intake(TimeFormat.AUTO);

        assertThat(accepted(noRange, "100000000000").eventTime()).isEqualTo(Instant.ofEpochSecond(100_000_000_000L));
        assertThat(accepted(noRange, "100000000001").eventTime()).isEqualTo(Instant.ofEpochMilli(100_000_000_001L));
    }

    static Stream<Arguments> unparsable() {
        return Stream.of(
                Arguments.of(TimeFormat.ISO_8601, "\"2026-11-29T09:59:30\"", "is a string \"2026-11-29T09:59:30\"; expected ISO-8601 with one Z, +hh:mm, +hhmm or +hh offset"),
                // Two offsets were read as the first ([XXX][XX][X] let both through).
                Arguments.of(TimeFormat.ISO_8601, "\"2026-11-29T10:00:00+01:00+0100\"", "unparsed at index 25"),
                // The leap second and a fraction past nanoseconds say why.
                Arguments.of(TimeFormat.ISO_8601, "\"2016-12-31T23:59:60Z\"", "Invalid value for SecondOfMinute (valid values 0 - 59): 60"),
                Arguments.of(TimeFormat.ISO_8601, "\"2026-11-29T10:00:00.1234567891Z\"", "at most 9 fraction digits"),
                // A date that does not exist was moved to the last day of its month (SMART resolving), in its window.
                Arguments.of(TimeFormat.ISO_8601, "\"2026-02-30T10:00:00Z\"", "Invalid date 'FEBRUARY 30'"),
                Arguments.of(TimeFormat.ISO_8601, "\"2026-02-29T10:00:00Z\"", "Invalid date 'February 29' as '2026' is not a leap year"),
                Arguments.of(TimeFormat.AUTO, "\"2026-04-31T00:00:00+01:00\"", "Invalid date 'APRIL 31'"),
                Arguments.of(TimeFormat.AUTO, "\"Tue, 31 Nov 2026 10:00:00 GMT\"", "\"Tue, 31 Nov 2026 10:00:00 GMT\""),
                Arguments.of(TimeFormat.ISO_8601, "\"yesterday\"", "\"yesterday\""),
                Arguments.of(TimeFormat.ISO_8601, "1795946370", "is a number 1795946370; expected an ISO-8601 string"),
                Arguments.of(TimeFormat.EPOCH_MILLIS, "\"soon\"", "is a string \"soon\"; expected epoch milliseconds"),
                Arguments.of(TimeFormat.EPOCH_SECONDS, "true", "is a boolean true; expected epoch seconds"),
                Arguments.of(TimeFormat.AUTO, "\"soon\"", "is a string \"soon\"; expected ISO-8601"),
                Arguments.of(TimeFormat.AUTO, "{\"at\":1}", "is an object {\"at\":1}"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("unparsable")
    void unparsableTimeIsAlwaysARejectionNeverAFallback(TimeFormat format, String tJson, String detail) {
        Rejected r = rejected(intake(format), tJson);

        assertThat(r.reason()).isEqualTo(RejectionReason.UNPARSABLE_EVENT_TIME);
        assertThat(r.detail()).startsWith("event time $.t ").contains(detail);
    }

    @Test
    void absentTimeFallsBackToSentTimestampFlagged() {
        Event e = intake(TimeFormat.ISO_8601).parse(message(json("{'id':'k'}"))).accepted().get(0);

        assertThat(e.eventTime()).isEqualTo(SENT);
        assertThat(e.eventTimeIsFallback()).isTrue();
        assertThat(accepted(intake(TimeFormat.ISO_8601), "null").eventTimeIsFallback()).isTrue();
    }

    @Test
    void withoutSentTimestampTheFallbackIsTheReceiptTime() {
        Event e = intake(TimeFormat.ISO_8601).parse(Messages.withoutSentTimestamp(json("{'id':'k'}"))).accepted().get(0);

        assertThat(e.eventTime()).isEqualTo(RECEIVED);
        assertThat(e.eventTimeIsFallback()).isTrue();
    }

    @Test
    void absentTimeWithFallbackRejectIsRejected() {
        MessageIntake strict = new MessageIntake(PipelineFixture.config(
                pipeline("p").eventTime("$.t", TimeFormat.ISO_8601, TimeFallback.REJECT, null, null)));

        Rejected r = strict.parse(message(json("{'id':'k'}"))).rejected().get(0);

        assertThat(r.reason()).isEqualTo(RejectionReason.MISSING_EVENT_TIME);
        assertThat(r.detail()).isEqualTo("event time $.t is absent and the fallback is REJECT");
    }

    static Stream<Arguments> outsideCalendar() {
        return Stream.of(
                Arguments.of(TimeFormat.ISO_8601, "\"1969-12-31T23:59:59.999Z\"", "is before 1970-01-01T00:00:00Z"),
                Arguments.of(TimeFormat.EPOCH_MILLIS, "-1", "read as epoch milliseconds is before 1970-01-01T00:00:00Z"),
                Arguments.of(TimeFormat.ISO_8601, "\"+10000-01-01T00:00:00Z\"", "is after year 9999"),
                Arguments.of(TimeFormat.EPOCH_SECONDS, "253402300800", "read as epoch seconds is after year 9999"),
                Arguments.of(TimeFormat.AUTO, "1e30", "read as epoch milliseconds is after year 9999"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("outsideCalendar")
    void timesBefore1970OrAfter9999AreOutOfRange(TimeFormat format, String tJson, String detail) {
        Rejected r = rejected(intake(format), tJson);

        assertThat(r.reason()).isEqualTo(RejectionReason.EVENT_TIME_OUT_OF_RANGE);
        assertThat(r.detail()).contains(detail);
    }

    @Test
    void calendarEdgesThemselvesAreAccepted() {
        assertThat(accepted(intake(TimeFormat.EPOCH_MILLIS), "0").eventTime()).isEqualTo(Instant.EPOCH);
        assertThat(accepted(intake(TimeFormat.ISO_8601), "\"9999-12-31T23:59:59.999Z\"").eventTime())
                .isEqualTo(Instant.parse("9999-12-31T23:59:59.999Z"));
    }

    private static final Duration MAX_FUTURE = Duration.ofMinutes(5);
    private static final Duration MAX_PAST = Duration.ofDays(1);

    static Stream<Arguments> aroundTheBounds() {
        return Stream.of(
                Arguments.of(SENT.plus(MAX_FUTURE), true),
                Arguments.of(SENT.plus(MAX_FUTURE).plusMillis(1), false),
                Arguments.of(SENT.minus(MAX_PAST), true),
                Arguments.of(SENT.minus(MAX_PAST).minusMillis(1), false),
                Arguments.of(SENT, true));
    }

    @ParameterizedTest(name = "{0} accepted={1}")
    @MethodSource("aroundTheBounds")
    void maxFutureAndMaxPastAreInclusiveBoundsAroundTheSentTime(Instant eventTime, boolean accepted) {
        MessageIntake bounded = new MessageIntake(PipelineFixture.config(
                pipeline("p").eventTime("$.t", TimeFormat.EPOCH_MILLIS, TimeFallback.REJECT, MAX_FUTURE, MAX_PAST)));

        IntakeResult result = bounded.parse(message("{\"id\":\"k\",\"t\":" + eventTime.toEpochMilli() + "}"));

        if (accepted) {
            assertThat(result.accepted()).singleElement().extracting(Event::eventTime).isEqualTo(eventTime);
        } else {
            assertThat(result.rejected()).singleElement().satisfies(r -> {
                assertThat(r.reason()).isEqualTo(RejectionReason.EVENT_TIME_OUT_OF_RANGE);
                assertThat(r.detail()).contains(eventTime.isAfter(SENT) ? "maxFuture is PT5M" : "maxPast is PT24H")
                        .contains("message's sent time 2026-11-29T10:00:00Z");
            });
        }
    }
}
