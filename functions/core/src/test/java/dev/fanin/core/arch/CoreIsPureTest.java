package dev.fanin.core.arch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The functional core stays functional: no AWS artifact on its classpath, and no class that reads the system clock
 * (time is always passed in).
 */
class CoreIsPureTest {

    private static final Pattern CLOCK_READS = Pattern.compile(
            "Instant\\.now\\(|System\\.currentTimeMillis\\(|System\\.nanoTime\\(|Clock\\.system|LocalDateTime\\.now\\("
                    + "|LocalDate\\.now\\(|ZonedDateTime\\.now\\(|OffsetDateTime\\.now\\(|new Date\\(\\)");

    @Test
    void noAwsArtifactOnTheCoreClasspath() {
        List<String> entries = Arrays.asList(System.getProperty("java.class.path").split(java.io.File.pathSeparator));
        assertThat(entries).as("core classpath").noneMatch(e -> e.contains("software/amazon") || e.contains("com/amazonaws")
                || e.contains("software" + java.io.File.separator + "amazon"));
    }

    @Test
    void noCoreClassReadsTheSystemClock() throws IOException {
        Path main = Path.of("src/main/java");
        try (Stream<Path> files = Files.walk(main)) {
            List<String> offenders = files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> CLOCK_READS.matcher(read(p)).find())
                    .map(Path::toString)
                    .toList();
            assertThat(offenders).as("core classes reading the system clock").isEmpty();
        }
    }

    @Test
    void theClockCheckWouldCatchAnOffender() {
        assertThat(CLOCK_READS.matcher("var t = Instant.now();").find()).isTrue();
        assertThat(CLOCK_READS.matcher("Instant now = clock.instant();").find()).isFalse();
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
