package dev.fanin.aws.dynamodb;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Item sizes and write units by DynamoDB's documented rules ("DynamoDB item sizes and formats" in the developer
 * guide), for backends whose reported consumed capacity is not size-based (moto reports fixed numbers):
 * <ul>
 *   <li>every attribute costs its name's UTF-8 bytes plus its value;</li>
 *   <li>S: UTF-8 bytes; B: raw bytes; BOOL and NULL: 1 byte;</li>
 *   <li>N: 1 byte per two significant digits (leading and trailing zeros trimmed), plus 1 byte, plus 1 byte when
 *       negative (the documented figure is "approximately"; this is the usual reading of it);</li>
 *   <li>SS, NS, BS: the sum of the element sizes;</li>
 *   <li>L and M: 3 bytes, plus 1 byte per element, plus the elements (a map entry's name counts like an
 *       attribute name).</li>
 * </ul>
 * A standard write consumes one unit per started KB of the larger of the item before and after; at least one.
 */
public final class DynamoDbItemSize {

    private static final int KB = 1024;

    private DynamoDbItemSize() { }

    public static long bytes(Map<String, AttributeValue> item) {
        long total = 0;
        for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
            total += utf8(attribute.getKey()) + valueBytes(attribute.getValue());
        }
        return total;
    }

    /** Standard (non-transactional) write units of replacing an item of {@code oldBytes} (0: none) by {@code newBytes}. */
    public static double writeUnits(long oldBytes, long newBytes) {
        long larger = Math.max(oldBytes, newBytes);
        return Math.max(1, (larger + KB - 1) / KB);
    }

    static long valueBytes(AttributeValue value) {
        if (value.s() != null) {
            return utf8(value.s());
        }
        if (value.n() != null) {
            return numberBytes(value.n());
        }
        if (value.b() != null) {
            return value.b().asByteArrayUnsafe().length;
        }
        if (value.bool() != null || Boolean.TRUE.equals(value.nul())) {
            return 1;
        }
        if (value.hasSs()) {
            return value.ss().stream().mapToLong(DynamoDbItemSize::utf8).sum();
        }
        if (value.hasNs()) {
            return value.ns().stream().mapToLong(DynamoDbItemSize::numberBytes).sum();
        }
        if (value.hasBs()) {
            return value.bs().stream().mapToLong(bytes -> bytes.asByteArrayUnsafe().length).sum();
        }
        if (value.hasL()) {
            List<AttributeValue> elements = value.l();
            return 3 + elements.size() + elements.stream().mapToLong(DynamoDbItemSize::valueBytes).sum();
        }
        if (value.hasM()) {
            Map<String, AttributeValue> entries = value.m();
            return 3 + entries.size() + bytes(entries);
        }
        throw new IllegalArgumentException("attribute value of unknown type: " + value);
    }

    static long numberBytes(String number) {
        BigDecimal decimal = new BigDecimal(number);
        String digits = decimal.unscaledValue().abs().toString();
        int significant = stripZeros(digits).length();
        return (significant + 1) / 2 + 1 + (decimal.signum() < 0 ? 1 : 0);
    }

    private static String stripZeros(String digits) {
        int end = digits.length();
        while (end > 1 && digits.charAt(end - 1) == '0') {
            end--;
        }
        return digits.substring(0, end);
    }

    private static long utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
