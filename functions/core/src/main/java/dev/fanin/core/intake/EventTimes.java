package dev.fanin.core.intake;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.config.EventTimeSpec;
import dev.fanin.core.config.EventTimeSpec.TimeFallback;
import dev.fanin.core.config.EventTimeSpec.TimeFormat;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads an event's event time. Pure: the reference clock is the message's sent time (or its receipt time when
 * the attribute is missing), passed in.
 *
 * <p>Formats: ISO_8601 is a string with a {@code Z}, {@code ±hh:mm}, {@code ±hhmm} or {@code ±hh} offset and any
 * fraction of a second, or an RFC 1123 date ({@code Sat, 05 Jun 2016 15:10:09 GMT}): the forms AWS services write
 * (docs/INTAKE.md lists them; a time without offset is ambiguous and refused); EPOCH_MILLIS and EPOCH_SECONDS are numbers (or strings of digits), seconds may be fractional; AUTO reads
 * a number (or a string of digits) as milliseconds when it is greater than 1e11 (that is, after 1973-03-03 in milliseconds, or after year
 * 5138 in seconds) and as seconds otherwise, and a string as ISO-8601. Accepted times lie in
 * [1970-01-01T00:00:00Z, 10000-01-01T00:00:00Z) and in [sent - maxPast, sent + maxFuture], both bounds inclusive.
 */
final class EventTimes {

    /** Event time and whether it came from the fallback rather than the payload. */
    record EventTime(Instant at, boolean fallback) { }

    static final Instant EARLIEST = Instant.EPOCH;
    /** Exclusive: the first instant of year 10000. */
    static final Instant END_OF_YEAR_9999 = Instant.parse("+10000-01-01T00:00:00Z");
    private static final BigDecimal AUTO_MILLIS_ABOVE = new BigDecimal("1e11");
    private static final BigDecimal END_SECONDS = BigDecimal.valueOf(END_OF_YEAR_9999.getEpochSecond());
    /**
     * ISO-8601 with the offset as CloudWatch writes it ({@code 2019-10-02T17:04:40.985+0000}) or as the others do
     * ({@code Z}, {@code +00:00}); then RFC 1123, as AWS Health writes {@code startTime}.
     */
    /** An epoch number written as a string, as SQS writes SentTimestamp. */
    private static final Pattern EPOCH_TEXT = Pattern.compile("-?\\d{1,20}(\\.\\d{1,9})?");
    /** {@code T24:00}, {@code T24:00:00} or {@code T24:00:00.000...}: the end of the day, and only with zero minutes. */
    private static final Pattern END_OF_DAY = Pattern.compile("T24:00((?::00(?:\\.0+)?)?)(?=[Zz+-]|$)");
    private static final DateTimeFormatter RFC_1123 = DateTimeFormatter.RFC_1123_DATE_TIME.withResolverStyle(ResolverStyle.STRICT);
    private static final List<DateTimeFormatter> ISO_FORMS = List.of(isoWithOffset("XXX"), isoWithOffset("XX"), isoWithOffset("X"), RFC_1123);

    private EventTimes() {
    }

    /**
     * ISO-8601 with exactly one offset of one form ({@code [XXX][XX][X]} took "+01:00+0100" for +01:00). Strict, as
     * {@code ISO_LOCAL_DATE_TIME} alone is: a date that does not exist (February 30) is unreadable, never moved to
     * the last day of its month.
     */
    private static DateTimeFormatter isoWithOffset(String offset) {
        return new DateTimeFormatterBuilder().parseCaseInsensitive().append(DateTimeFormatter.ISO_LOCAL_DATE_TIME)
                .appendPattern(offset).toFormatter().withResolverStyle(ResolverStyle.STRICT);
    }

    /**
     * @param reference the message's sent time (or receipt time), from which maxFuture and maxPast are measured, and the
     *                  fallback event time
     * @throws IntakeFailure MISSING_EVENT_TIME, UNPARSABLE_EVENT_TIME or EVENT_TIME_OUT_OF_RANGE
     */
    static EventTime resolve(EventTimeSpec spec, JsonNode payload, JsonNode envelope, Instant reference) {
        JsonNode value = spec.path() == null ? null : spec.path().read(payload, envelope);
        if (value == null || Scalars.isAbsent(value)) {
            if (spec.fallback() == TimeFallback.REJECT) {
                throw new IntakeFailure(RejectionReason.MISSING_EVENT_TIME, "event time " + spec.path() + " is "
                        + (value != null && value.isNull() ? "null" : "absent") + " and the fallback is REJECT");
            }
            return new EventTime(reference, true);
        }
        String path = spec.path().toString();
        Instant at = parse(value, spec.format(), path);
        checkRange(at, path, value, reference, spec.maxFuture(), spec.maxPast());
        return new EventTime(at, false);
    }

    static Instant parse(JsonNode value, TimeFormat format, String path) {
        return switch (format) {
            case ISO_8601 -> iso(value, path);
            case EPOCH_MILLIS -> epoch(number(value, path, "epoch milliseconds"), true, path, value);
            case EPOCH_SECONDS -> epoch(number(value, path, "epoch seconds"), false, path, value);
            case AUTO -> {
                if (value.isNumber() || value.isTextual() && EPOCH_TEXT.matcher(value.textValue()).matches()) {
                    BigDecimal n = number(value, path, "a number");
                    yield epoch(n, n.compareTo(AUTO_MILLIS_ABOVE) > 0, path, value);
                }
                yield iso(value, path);
            }
        };
    }

    private static Instant iso(JsonNode value, String path) {
        if (!value.isTextual()) {
            throw unparsable(path, value, "expected an ISO-8601 string such as \"2026-11-29T10:15:30Z\"");
        }
        // Why it failed, said by the ISO forms for a text that starts like one, else by RFC 1123 (the last form).
        boolean isoLike = !value.textValue().isEmpty() && Character.isDigit(value.textValue().charAt(0));
        // ISO-8601's end of a day, 24:00, is the next day's 00:00 (the strict forms take hours 0-23 only).
        Matcher endOfDay = END_OF_DAY.matcher(value.textValue());
        String text = endOfDay.find() ? endOfDay.replaceFirst("T00:00$1") : value.textValue();
        Duration nextDay = text.equals(value.textValue()) ? Duration.ZERO : Duration.ofDays(1);
        DateTimeParseException furthest = null;
        for (DateTimeFormatter form : ISO_FORMS) {
            try {
                return OffsetDateTime.parse(text, form).toInstant().plus(nextDay);
            } catch (DateTimeParseException e) {
                boolean rfc = form == RFC_1123;
                if (furthest == null || (isoLike ? !rfc && reach(e) > reach(furthest) : rfc)) {
                    furthest = e;
                }
            }
        }
        throw unparsable(path, value, "expected ISO-8601 with one Z, +hh:mm, +hhmm or +hh offset and at most 9 fraction"
                + " digits, such as \"2026-11-29T10:15:30Z\", or an RFC 1123 date (" + why(furthest) + ")");
    }

    /** How far a form read: a value it read whole but found invalid (February 30, second 60) is the furthest. */
    private static int reach(DateTimeParseException e) {
        return e.getCause() != null ? Integer.MAX_VALUE : e.getErrorIndex();
    }

    /** What the closest form said, without the text it quotes (the detail quotes the value already). */
    private static String why(DateTimeParseException e) {
        String message = e.getMessage();
        int colon = message.indexOf(": ");
        return colon >= 0 && message.startsWith("Text '") ? message.substring(colon + 2) : "unparsed at index " + e.getErrorIndex();
    }

    private static BigDecimal number(JsonNode value, String path, String format) {
        if (value.isNumber()) {
            return value.decimalValue();
        }
        if (value.isTextual() && EPOCH_TEXT.matcher(value.textValue()).matches()) {
            return new BigDecimal(value.textValue());
        }
        throw unparsable(path, value, "expected " + format + " (a number)");
    }

    private static Instant epoch(BigDecimal amount, boolean millis, String path, JsonNode value) {
        BigDecimal seconds = millis ? amount.movePointLeft(3) : amount;
        String unit = millis ? " read as epoch milliseconds" : " read as epoch seconds";
        if (seconds.signum() < 0) {
            throw outOfRange(path, value, unit + " is before " + EARLIEST);
        }
        if (seconds.compareTo(END_SECONDS) >= 0) {
            throw outOfRange(path, value, unit + " is after year 9999");
        }
        long whole = seconds.longValue();
        int nanos = seconds.subtract(BigDecimal.valueOf(whole)).movePointRight(9).intValue();
        return Instant.ofEpochSecond(whole, nanos);
    }

    private static void checkRange(Instant at, String path, JsonNode value, Instant reference, Duration maxFuture, Duration maxPast) {
        if (at.isBefore(EARLIEST)) {
            throw outOfRange(path, value, " is before " + EARLIEST);
        }
        if (!at.isBefore(END_OF_YEAR_9999)) {
            throw outOfRange(path, value, " is after year 9999");
        }
        if (maxFuture != null && at.isAfter(reference.plus(maxFuture))) {
            throw outOfRange(path, value, " is " + Duration.between(reference, at) + " after the message's sent time " + reference
                    + "; maxFuture is " + maxFuture);
        }
        if (maxPast != null && at.isBefore(reference.minus(maxPast))) {
            throw outOfRange(path, value, " is " + Duration.between(at, reference) + " before the message's sent time " + reference
                    + "; maxPast is " + maxPast);
        }
    }

    private static IntakeFailure unparsable(String path, JsonNode value, String expected) {
        return new IntakeFailure(RejectionReason.UNPARSABLE_EVENT_TIME, "event time " + path + " is " + Details.kind(value) + " "
                + Details.value(value) + "; " + expected);
    }

    private static IntakeFailure outOfRange(String path, JsonNode value, String why) {
        return new IntakeFailure(RejectionReason.EVENT_TIME_OUT_OF_RANGE, "event time " + path + " = " + Details.value(value) + why);
    }
}
