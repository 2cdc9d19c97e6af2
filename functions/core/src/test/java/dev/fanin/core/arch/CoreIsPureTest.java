package dev.fanin.core.arch;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.io.File;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The functional core stays functional: no AWS type and no AWS artifact, no read of the system clock (time is always
 * passed in), and no cycle between its packages (each can be read, and changed, from the ones below it).
 */
class CoreIsPureTest {

    private static final JavaClasses CORE = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.fanin.core");

    /** The ways Java reads the system clock: {@code now()} of any java.time type, System's two, Clock's system clocks. */
    private static final Set<String> SYSTEM_READS = Set.of("java.lang.System.currentTimeMillis", "java.lang.System.nanoTime",
            "java.time.Clock.systemUTC", "java.time.Clock.systemDefaultZone", "java.time.Clock.system");

    static final ArchRule NO_CLOCK_READ = noClasses().should().callMethodWhere(describe("a read of the system clock",
            (JavaCall<?> call) -> readsTheClock(call)))
            .orShould().callConstructor(java.util.Date.class)
            .because("time is passed in (Instant now, or a java.time.Clock the shell builds)");

    static final ArchRule NO_AWS_TYPE = noClasses().should().dependOnClassesThat()
            .resideInAnyPackage("software.amazon..", "com.amazonaws..", "com.amazon..")
            .because("the core knows no AWS or SQS notion; adapters and handlers translate");

    static final ArchRule NO_PACKAGE_CYCLE = slices().matching("dev.fanin.core.(*)..").should().beFreeOfCycles();

    @Test
    void noCoreClassReadsTheSystemClock() {
        NO_CLOCK_READ.check(CORE);
    }

    @Test
    void noCoreClassDependsOnAnAwsType() {
        NO_AWS_TYPE.check(CORE);
    }

    @Test
    void thePackagesOfTheCoreHaveNoCycle() {
        NO_PACKAGE_CYCLE.check(CORE);
    }

    @Test
    void noAwsArtifactOnTheCoreClasspath() {
        List<String> entries = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        assertThat(entries).as("core classpath").noneMatch(e -> e.contains("software/amazon") || e.contains("com/amazonaws")
                || e.contains("software" + File.separator + "amazon"));
    }

    @Test
    void theClockRuleCatchesEachWayOfReadingTheClock() {
        for (Class<?> offender : List.of(ReadsInstantNow.class, ReadsMillis.class, ReadsSystemClock.class, ReadsNewDate.class)) {
            JavaClasses one = new ClassFileImporter().importClasses(offender);
            assertThatThrownBy(() -> NO_CLOCK_READ.check(one)).as(offender.getSimpleName()).isInstanceOf(AssertionError.class);
        }
        NO_CLOCK_READ.check(new ClassFileImporter().importClasses(TakesTimeIn.class));
    }

    private static boolean readsTheClock(JavaCall<?> call) {
        String owner = call.getTargetOwner().getName();
        String name = call.getName();
        return owner.startsWith("java.time.") && name.equals("now") || SYSTEM_READS.contains(owner + "." + name);
    }

    static final class ReadsInstantNow {
        Instant at() {
            return Instant.now();
        }
    }

    static final class ReadsMillis {
        long at() {
            return System.currentTimeMillis();
        }
    }

    static final class ReadsSystemClock {
        Clock clock() {
            return Clock.systemUTC();
        }
    }

    static final class ReadsNewDate {
        Object at() {
            return new java.util.Date();
        }
    }

    static final class TakesTimeIn {
        Instant at(Clock clock) {
            return clock.instant().plusSeconds(1);
        }
    }
}
