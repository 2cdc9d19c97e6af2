package dev.fanin.cli.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The rules between fanin's modules (docs/ARCHITECTURE.md, "Modules"), checked over every module's main classes; the
 * core's own rules are in {@code CoreIsPureTest}. Each rule is also fed one offender, so it can fail.
 */
class LayersTest {

    private static final JavaClasses FANIN = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.fanin");

    /** The tools that must never reach a function's zip. */
    private static final String[] TOOLS = {"dev.fanin.cli..", "dev.fanin.bench..", "dev.fanin.sim..", "dev.fanin.testkit.."};

    // The bench's cost model mirrors the layout on purpose (it bills the adapter's own items), and the testkit creates
    // the table: both are left out.
    static final ArchRule ONLY_ADAPTERS_KNOW_THE_ITEM_LAYOUT = noClasses()
            .that().resideInAnyPackage("dev.fanin.core..", "dev.fanin.lambda..", "dev.fanin.cli..", "dev.fanin.sim..")
            .should().dependOnClassesThat().resideInAPackage("software.amazon.awssdk.services.dynamodb.model..")
            .because("nothing outside an adapter knows its storage layout: tools read items through WindowTableReader");

    static final ArchRule HANDLERS_CARRY_NO_TOOLS = noClasses().that().resideInAPackage("dev.fanin.lambda..")
            .should().dependOnClassesThat().resideInAnyPackage(TOOLS)
            .because("the functions' zip holds the core, the adapters and the handlers only");

    static final ArchRule ADAPTERS_SIT_BELOW_THE_HANDLERS = noClasses().that().resideInAPackage("dev.fanin.aws..")
            .should().dependOnClassesThat().resideInAnyPackage(concat("dev.fanin.lambda..", TOOLS))
            .because("an adapter translates one technology for the core and knows nothing above it");

    static final ArchRule HANDLERS_BUILD_THEIR_CLIENTS_ONCE = classes().that().implement(RequestHandler.class)
            .should(haveAPublicNoArgConstructorAndOneTakingDependencies())
            .because("Lambda builds a handler with its no-arg constructor (clients built once, at cold start); tests pass "
                    + "the dependencies in");

    static final ArchRule MODULES_HAVE_NO_CYCLE = slices().matching("dev.fanin.(*)..").should().beFreeOfCycles();

    @Test
    void onlyAdaptersKnowTheItemLayout() {
        ONLY_ADAPTERS_KNOW_THE_ITEM_LAYOUT.check(FANIN);
    }

    @Test
    void handlersCarryNoTools() {
        HANDLERS_CARRY_NO_TOOLS.check(FANIN);
    }

    @Test
    void adaptersSitBelowTheHandlers() {
        ADAPTERS_SIT_BELOW_THE_HANDLERS.check(FANIN);
    }

    @Test
    void everyHandlerHasBothConstructors() {
        HANDLERS_BUILD_THEIR_CLIENTS_ONCE.check(FANIN);
    }

    @Test
    void theModulesHaveNoCycle() {
        MODULES_HAVE_NO_CYCLE.check(FANIN);
    }

    @Test
    void eachRuleCatchesItsOffender() {
        JavaClasses offenders = new ClassFileImporter().importClasses(ReadsAnItem.class, NoArgOnly.class);
        assertThatThrownBy(() -> ONLY_ADAPTERS_KNOW_THE_ITEM_LAYOUT.check(offenders)).isInstanceOf(AssertionError.class)
                .hasMessageContaining(ReadsAnItem.class.getSimpleName());
        assertThatThrownBy(() -> HANDLERS_BUILD_THEIR_CLIENTS_ONCE.check(offenders)).isInstanceOf(AssertionError.class)
                .hasMessageContaining(NoArgOnly.class.getSimpleName());
    }

    private static ArchCondition<JavaClass> haveAPublicNoArgConstructorAndOneTakingDependencies() {
        return new ArchCondition<>("have a public no-arg constructor and a public one taking dependencies") {
            @Override
            public void check(JavaClass handler, ConditionEvents events) {
                boolean noArg = handler.getConstructors().stream()
                        .anyMatch(c -> c.getModifiers().contains(JavaModifier.PUBLIC) && c.getRawParameterTypes().isEmpty());
                boolean withDependencies = handler.getConstructors().stream()
                        .anyMatch(c -> c.getModifiers().contains(JavaModifier.PUBLIC) && !c.getRawParameterTypes().isEmpty());
                if (!noArg || !withDependencies) {
                    events.add(SimpleConditionEvent.violated(handler, handler.getName() + (noArg ? " takes no dependencies"
                            : " has no public no-arg constructor")));
                }
            }
        };
    }

    private static String[] concat(String first, String[] rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    /** A tool reading a DynamoDB item itself. */
    static final class ReadsAnItem {
        String windowId(java.util.Map<String, AttributeValue> item) {
            return item.get("sk").s();
        }
    }

    /** A handler whose clients a test cannot replace. */
    static final class NoArgOnly implements RequestHandler<String, String> {
        @Override
        public String handleRequest(String input, Context context) {
            return input;
        }
    }
}
