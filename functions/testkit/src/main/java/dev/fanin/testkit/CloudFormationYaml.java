package dev.fanin.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads a CloudFormation/SAM YAML template into plain maps, lists and scalars, turning every short-form intrinsic
 * into its long form ({@code !Ref X} into {@code {Ref: X}}, {@code !GetAtt A.B} into {@code {Fn::GetAtt: [A, B]}},
 * {@code !Sub ...} into {@code {Fn::Sub: ...}}, and so on), so that later code sees one shape only.
 * Duplicate keys are an error, as they are for CloudFormation; timestamps stay strings (think {@code 2012-10-17}).
 */
public final class CloudFormationYaml {

    private static final List<String> FN_TAGS = List.of("Base64", "Cidr", "FindInMap", "GetAtt", "GetAZs",
            "ImportValue", "Join", "Select", "Split", "Sub", "Transform", "And", "Equals", "If", "Not", "Or",
            "Contains", "EachMemberEquals", "EachMemberIn", "RefAll", "ValueOf", "ValueOfAll", "ToJsonString",
            "Length", "ForEach");

    private CloudFormationYaml() {
    }

    public static Map<String, Object> read(Path template) {
        try {
            return parse(Files.readString(template));
        } catch (IOException unreadable) {
            throw new IllegalArgumentException("cannot read template " + template + ": " + unreadable.getMessage(),
                    unreadable);
        }
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> parse(String yaml) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setCodePointLimit(Integer.MAX_VALUE);
        Object document = new Yaml(new IntrinsicConstructor(options)).load(yaml);
        if (!(document instanceof Map)) {
            throw new IllegalArgumentException("a template is a YAML mapping at the top level");
        }
        return (Map<String, Object>) document;
    }

    private static final class IntrinsicConstructor extends SafeConstructor {

        IntrinsicConstructor(LoaderOptions options) {
            super(options);
            yamlConstructors.put(new Tag("!Ref"), new LongForm("Ref"));
            yamlConstructors.put(new Tag("!Condition"), new LongForm("Condition"));
            for (String fn : FN_TAGS) {
                yamlConstructors.put(new Tag("!" + fn), new LongForm("Fn::" + fn));
            }
            yamlConstructors.put(Tag.TIMESTAMP, yamlConstructors.get(Tag.STR));
        }

        /** Builds {@code {name: argument}} from a tagged scalar, sequence or mapping node. */
        private final class LongForm extends AbstractConstruct {

            private final String name;

            LongForm(String name) {
                this.name = name;
            }

            @Override
            public Object construct(Node node) {
                Object argument;
                if (node instanceof ScalarNode scalar) {
                    String text = constructScalar(scalar);
                    argument = name.equals("Fn::GetAtt") ? splitGetAtt(text, node) : text;
                } else if (node instanceof SequenceNode sequence) {
                    argument = constructSequence(sequence);
                } else if (node instanceof MappingNode mapping) {
                    argument = constructMapping(mapping);
                } else {
                    throw new IllegalArgumentException("unexpected YAML node for " + name + node.getStartMark());
                }
                return Map.of(name, argument);
            }

            /** {@code !GetAtt Resource.Attribute.With.Dots}: the logical id ends at the first dot. */
            private List<String> splitGetAtt(String text, Node node) {
                int dot = text.indexOf('.');
                if (dot <= 0 || dot == text.length() - 1) {
                    throw new IllegalArgumentException("!GetAtt needs Resource.Attribute, got '" + text + "'"
                            + node.getStartMark());
                }
                return List.of(text.substring(0, dot), text.substring(dot + 1));
            }
        }
    }
}
