package dev.fanin.aws.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SliceCacheTest {

    @Test
    void theLeastRecentlyUsedWindowGoesFirstOnceTheBoundIsPassed() {
        SliceCache cache = new SliceCache(20 * SliceCache.BYTES_PER_ID);
        cache.remember("a", known(1, 10));
        cache.remember("b", known(1, 10));
        assertThat(cache.known("a", 1, 100)).as("a used, b now the eldest").isNotNull();

        cache.remember("c", known(1, 5));

        assertThat(cache.known("b", 1, 100)).isNull();
        assertThat(cache.known("a", 1, 100)).isNotNull();
        assertThat(cache.known("c", 1, 100)).isNotNull();
    }

    @Test
    void aWindowLargerThanTheBoundIsNotKept() {
        SliceCache cache = new SliceCache(5 * SliceCache.BYTES_PER_ID);
        cache.remember("a", known(1, 6));
        assertThat(cache.known("a", 1, 100)).isNull();
        assertThat(new SliceCache(0).known("a", 1, 100)).isNull();
    }

    @Test
    void whatIsKnownOfAnotherIncarnationOfTheWindowIsDropped() {
        SliceCache cache = new SliceCache(SliceCache.DEFAULT_BYTES);
        cache.remember("a", known(7, 3));
        assertThat(cache.known("a", 9, 100)).as("a later head of the same window").isNotNull();
        assertThat(cache.known("a", 9, 101)).as("another TTL: the window was created again").isNull();
        cache.remember("a", known(7, 3));
        assertThat(cache.known("a", 6, 100)).as("an older version than the one seen: created again").isNull();
    }

    private static SliceCache.Known known(long version, int ids) {
        Set<String> set = IntStream.range(0, ids).mapToObj(i -> String.format("%016d", i)).collect(Collectors.toSet());
        return new SliceCache.Known(version, 100, 3, set);
    }
}
