package dev.fanin.core.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EventIdDigestTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // First 12 bytes of SHA-256, URL-safe base64 without padding (computed independently).
            "abc, ungWv48Bz-pBQUDe",
            "évènement-1, kDl8e8nmkwUq36ck",
    })
    void knownVectors(String eventId, String digest) {
        assertThat(EventIdDigest.of(eventId)).isEqualTo(digest);
    }

    @Test
    void aTooLateVerdictIsTheDigestMarkedAndToldFromACountedOne() {
        String digest = EventIdDigest.of("e1");
        assertThat(EventIdDigest.isTooLate(EventIdDigest.tooLate(digest))).isTrue();
        assertThat(EventIdDigest.isTooLate(digest)).as("a digest is base64url: never the mark").isFalse();
    }

    @Test
    void anIdWithAnUnpairedSurrogateHasNoDigestInsteadOfCollidingWithAnother() {
        // getBytes(UTF_8) made all three "a?": two distinct events were dropped as duplicates of the third.
        assertThatThrownBy(() -> EventIdDigest.of("a\ud800")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unpaired UTF-16 surrogate at index 1");
        assertThatThrownBy(() -> EventIdDigest.of("a\udbff")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EventIdDigest.of("\udc00a")).isInstanceOf(IllegalArgumentException.class);
        assertThat(EventIdDigest.of("a?")).isNotEqualTo(EventIdDigest.of("a\ud83d\ude80"));
    }

    @Test
    void fixedLengthUrlSafeWhateverTheInput() {
        assertThat(EventIdDigest.of("")).hasSize(EventIdDigest.LENGTH).matches("[A-Za-z0-9_-]{16}");
        assertThat(EventIdDigest.of("x".repeat(10_000))).hasSize(EventIdDigest.LENGTH).matches("[A-Za-z0-9_-]{16}");
        assertThat(EventIdDigest.of("a")).isNotEqualTo(EventIdDigest.of("b"));
    }
}
