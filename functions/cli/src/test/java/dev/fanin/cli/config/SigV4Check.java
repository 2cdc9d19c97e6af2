package dev.fanin.cli.config;

import com.sun.net.httpserver.HttpExchange;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A request's Signature Version 4 checked as AWS checks it (AWS General Reference, "Create a signed AWS API request"):
 * the canonical request rebuilt from the method, path, query, the headers it names and the body's SHA-256, signed
 * again with the secret key for the date, region us-east-1 and service {@code appconfig}, and compared. Written here
 * from the documented steps, so it checks the SDK's signer as used by fanin rather than the signer against itself.
 */
final class SigV4Check {

    static final String KEY = "fanin-test";
    static final String SECRET = "fanin-test-secret";
    private static final Pattern AUTHORIZATION = Pattern.compile("AWS4-HMAC-SHA256 Credential=" + KEY
            + "/(\\d{8})/us-east-1/appconfig/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})");

    private SigV4Check() {
    }

    /** What is wrong with the request's signature, or null when it is right. */
    static String problem(HttpExchange exchange, byte[] body) {
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        Matcher m = AUTHORIZATION.matcher(authorization == null ? "" : authorization);
        if (!m.matches()) {
            return "Authorization is not a SigV4 header for appconfig in us-east-1: " + authorization;
        }
        String amzDate = exchange.getRequestHeaders().getFirst("X-Amz-Date");
        List<String> signed = Arrays.asList(m.group(2).split(";"));
        if (amzDate == null || !amzDate.startsWith(m.group(1)) || !signed.contains("host") || !signed.contains("x-amz-date")
                || (body.length > 0 && !signed.contains("content-type"))) {
            return "the signature must cover host, x-amz-date (of its date) and a body's content-type; signed: " + signed;
        }
        String canonical = String.join("\n", exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                canonicalQuery(exchange.getRequestURI().getRawQuery()),
                signed.stream().map(h -> h + ":" + exchange.getRequestHeaders().getFirst(h).strip() + "\n").collect(Collectors.joining()),
                m.group(2), hex(sha256(body)));
        String scope = m.group(1) + "/us-east-1/appconfig/aws4_request";
        String toSign = String.join("\n", "AWS4-HMAC-SHA256", amzDate, scope, hex(sha256(canonical.getBytes(StandardCharsets.UTF_8))));
        byte[] key = ("AWS4" + SECRET).getBytes(StandardCharsets.UTF_8);
        for (String part : List.of(m.group(1), "us-east-1", "appconfig", "aws4_request")) {
            key = hmac(key, part);
        }
        String expected = hex(hmac(key, toSign));
        return expected.equals(m.group(3)) ? null : "signature " + m.group(3) + " does not match " + expected + " for:\n" + canonical;
    }

    /** The query's parameters sorted by name then value, each already URI-encoded as sent. */
    private static String canonicalQuery(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return "";
        }
        return Arrays.stream(rawQuery.split("&")).map(p -> p.contains("=") ? p : p + "=").sorted().collect(Collectors.joining("&"));
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
