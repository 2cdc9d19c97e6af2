package dev.fanin.cli.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fanin.cli.Console;
import dev.fanin.cli.FaninCli;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.lambda.ConfigLocation;
import dev.fanin.lambda.FaninRuntime;
import dev.fanin.testkit.LocalAwsEndpoint;
import dev.fanin.testkit.LocalResources;
import dev.fanin.testkit.TemplateResources;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.ParameterType;

/**
 * {@code fanin config diff} and {@code publish} on the local endpoint, as an operator runs them against a deployed
 * stack: the location comes from the stack's {@code PipelineConfigLocation} (a CloudFormation stack on the endpoint),
 * an invalid file is refused with its problems and writes nothing, the diff says what each change does to open windows,
 * and the functions (a runtime built from the template's environment) read what was published.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConfigCommandTest {

    private static final String BUNDLED = bundled();
    private static final Path TEMPLATE = Path.of("../../template.yaml").toAbsolutePath().normalize();

    private final LocalAwsEndpoint endpoint = LocalAwsEndpoint.shared();
    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private final StaticCredentialsProvider credentials = StaticCredentialsProvider.create(
            AwsBasicCredentials.create("fanin-local", "fanin-local"));
    private S3Client s3;
    private SsmClient ssm;
    private String bucket;
    /** The template's table and queues, which a function needs to start (one set: each start only reads them). */
    private LocalResources resources;

    @TempDir
    Path dir;

    record Run(int exit, String out, String err) { }

    @BeforeAll
    void clients() {
        s3 = S3Client.builder().httpClientBuilder(UrlConnectionHttpClient.builder()).region(LocalAwsEndpoint.REGION)
                .credentialsProvider(credentials).endpointOverride(endpoint.endpoint()).forcePathStyle(true).build();
        ssm = SsmClient.builder().httpClientBuilder(UrlConnectionHttpClient.builder()).region(LocalAwsEndpoint.REGION)
                .credentialsProvider(credentials).endpointOverride(endpoint.endpoint()).build();
        bucket = "fanin-config-" + run;
        s3.createBucket(b -> b.bucket(bucket));
        resources = TemplateResources.load(TEMPLATE).createOn(endpoint, "cfg-" + run + "-");
    }

    @Test
    void publishToTheStacksS3LocationValidatesDiffsAndWritesWhatTheFunctionsRead() throws IOException {
        String location = "s3://" + bucket + "/pipelines.yaml";
        String stack = stack(location);
        Path bundled = file("bundled.yaml", BUNDLED);
        Path invalid = file("invalid.yaml", BUNDLED.replace("      maxLifetime: 30m\n", ""));
        Path changed = file("changed.yaml", BUNDLED.replace("  - name: alert-storm\n", "  - name: alert-storm-eb\n")
                .replace("      gap: 10m\n", "      gap: 20m\n"));

        Run refused = fanin("", "config", "publish", "--stack", stack, invalid.toString(), "--yes");
        assertThat(refused.exit()).isEqualTo(FaninCli.INVALID_INPUT);
        assertThat(refused.out()).contains(invalid + " is invalid; nothing was compared or published:")
                .contains("shard-completions").contains("maxLifetime").contains("1 problem");
        assertThat(published("pipelines.yaml")).as("nothing written").isNull();

        Run first = fanin("", "config", "publish", "--stack", stack, bundled.toString(), "--yes");
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out()).contains("nothing is published at " + location + " yet: every pipeline is new to it")
                .contains("\"none open yet\" below is not known: a stack that ran a configuration from elsewhere")
                .contains("alert-storm: added -> none open yet").contains("4 changes")
                .contains("published: object " + location + " written (ETag ");
        assertThat(published("pipelines.yaml")).isEqualTo(BUNDLED);
        assertThat(pipelinesTheFunctionsRead(location)).containsExactly("alert-storm", "alert-storm-sns", "file-uploads", "shard-completions");

        Run same = fanin("", "config", "publish", "--stack", stack, bundled.toString(), "--yes");
        assertThat(same.out()).contains("no change: the document is the one published").contains("nothing published");

        Run diff = fanin("", "config", "diff", "--stack", stack, changed.toString());
        assertThat(diff.exit()).isZero();
        assertThat(diff.out()).contains("published at " + location + ": 4 pipelines (alert-storm, alert-storm-sns, file-uploads,"
                        + " shard-completions)")
                .contains("file-uploads: window changed -> new events extend sessions by the new gap")
                .contains("alert-storm: renamed to alert-storm-eb -> new events go to new windows of alert-storm-eb; open windows of"
                        + " alert-storm get no more and close under its old definition, by PT10M after they opened at the latest")
                .contains("2 changes");
        assertThat(published("pipelines.yaml")).as("diff writes nothing").isEqualTo(BUNDLED);

        Run declined = fanin("n\n", "config", "publish", "--stack", stack, changed.toString());
        assertThat(declined.exit()).isEqualTo(FaninCli.USAGE);
        assertThat(declined.err()).contains("publish " + changed + " to " + location + "? [y/N]").contains("not confirmed: nothing published");
        assertThat(published("pipelines.yaml")).isEqualTo(BUNDLED);

        Run accepted = fanin("y\n", "config", "publish", "--stack", stack, changed.toString());
        assertThat(accepted.exit()).as(accepted.err()).isZero();
        assertThat(published("pipelines.yaml")).isEqualTo(Files.readString(changed));
        assertThat(pipelinesTheFunctionsRead(location)).containsExactly("alert-storm-eb", "alert-storm-sns", "file-uploads", "shard-completions");
    }

    /**
     * A document whose emit target names a variable the stack's functions do not have passes the loader, and every
     * function then refuses it (a review published docs/CONFIGURATION.md's example, {@code ${FANIN_ROLLUP_QUEUE_URL}},
     * and {@code ${FANIN_EMIT_QUEUE_URL}} with EmitQueueUrl left empty: both written, both refused by the functions).
     */
    @Test
    void aDocumentTheStacksFunctionsCannotRunIsRefusedAndNothingWritten() throws IOException {
        String location = "s3://" + bucket + "/unrunnable.yaml";
        String stack = stack(location);
        String sqsTarget = "      sqs:\n        queueUrl: \"${FANIN_EMIT_QUEUE_URL}\"\n";
        Path emptyQueue = file("empty-queue.yaml", BUNDLED.replace("      eventbridge:\n        bus: \"${FANIN_EMIT_BUS_NAME}\"\n"
                + "        source: fanin\n        detailType: fanin.aggregate\n", sqsTarget));
        Path ownVariable = file("own-variable.yaml", Files.readString(emptyQueue).replace("FANIN_EMIT_QUEUE_URL", "FANIN_ROLLUP_QUEUE_URL"));
        assertThat(Files.readString(emptyQueue)).contains(sqsTarget);

        Run empty = fanin("", "config", "publish", "--stack", stack, emptyQueue.toString(), "--yes");
        Run own = fanin("", "config", "diff", "--stack", stack, ownVariable.toString());
        Run given = fanin("", "config", "publish", "--stack", stack, ownVariable.toString(), "--yes",
                "--function-env", "FANIN_ROLLUP_QUEUE_URL=https://sqs.us-east-1.amazonaws.com/123456789012/rollup");

        assertThat(empty.exit()).isEqualTo(FaninCli.INVALID_INPUT);
        assertThat(empty.out()).startsWith(emptyQueue + " cannot run on the functions; nothing was compared or published:"
                + " pipeline 'alert-storm' emit.queueUrl refers to environment variable FANIN_EMIT_QUEUE_URL")
                .contains("its EmitQueueUrl parameter, empty here");
        assertThat(own.exit()).isEqualTo(FaninCli.INVALID_INPUT);
        assertThat(own.out()).contains("FANIN_ROLLUP_QUEUE_URL").contains("--function-env NAME=VALUE");
        assertThat(given.exit()).as(given.out() + given.err()).isZero();
        assertThat(published("unrunnable.yaml")).isEqualTo(Files.readString(ownVariable));
        // Lambda's own variables are set on every function (a review: AWS_REGION in a URL was refused).
        Path region = file("region.yaml", Files.readString(emptyQueue).replace("${FANIN_EMIT_QUEUE_URL}",
                "https://sqs.${AWS_REGION}.amazonaws.com/123456789012/out"));
        Run byRegion = fanin("", "config", "diff", "--stack", stack, region.toString());
        assertThat(byRegion.exit()).as(byRegion.out() + byRegion.err()).isZero();
    }

    @Test
    void publishToAnSsmParameterCreatesItOrKeepsItsTypeAndTakesADocumentOverFourKilobytes() throws IOException {
        String created = "/fanin/" + run + "/created";
        String secure = "/fanin/" + run + "/secure";
        ssm.putParameter(p -> p.name(secure).type(ParameterType.SECURE_STRING).value("version: 1\npipelines: []\n"));
        Path bundled = file("bundled.yaml", BUNDLED);
        assertThat(BUNDLED.getBytes(StandardCharsets.UTF_8).length).as("over a standard parameter's 4 KB").isGreaterThan(4096);

        Run create = fanin("", "config", "publish", "--location", "ssm:" + created, bundled.toString(), "--yes");
        Run over = fanin("", "config", "publish", "--location", "ssm:" + secure, bundled.toString(), "--yes");

        assertThat(create.exit()).as(create.err()).isZero();
        assertThat(create.out()).contains("published: parameter " + created + " version 1 written");
        assertThat(over.exit()).as(over.err()).isZero();
        assertThat(over.out()).as("an invalid document is compared with nothing")
                .contains("the document published at ssm:" + secure + " is invalid")
                .contains("\"none open yet\" below is not known").contains("version 2 written");
        var stored = ssm.getParameter(r -> r.name(secure).withDecryption(true)).parameter();
        assertThat(stored.type()).isEqualTo(ParameterType.SECURE_STRING);
        assertThat(stored.value()).isEqualTo(BUNDLED);
        assertThat(pipelinesTheFunctionsRead("ssm:" + created)).hasSize(4);
    }

    @Test
    void aConfigurationInsideTheFunctionsIsComparedButNeverPublished() throws IOException {
        Path changed = file("changed.yaml", BUNDLED.replace("      gap: 10m\n", "      gap: 20m\n"));

        Run diff = run(Map.of(), "", "config", "diff", "--location", "classpath:fanin/pipelines.yaml", changed.toString());
        Run publish = fanin("", "config", "publish", "--location", "classpath:fanin/pipelines.yaml", changed.toString(), "--yes");

        assertThat(diff.exit()).as("no AWS region or credentials needed: " + diff.err()).isZero();
        assertThat(diff.out()).contains("file-uploads: window changed").contains("1 change");
        assertThat(publish.exit()).isEqualTo(FaninCli.INVALID_INPUT);
        assertThat(publish.out()).contains("nothing published: the stack reads its pipelines from classpath:fanin/pipelines.yaml,"
                + " inside its functions: a change there is a deploy, not a publish");
    }

    /**
     * With {@code --location} the stack's emit queue is not known: a document sending to it as a FIFO queue is as
     * runnable as one sending to it as a standard queue (a review: the FIFO example of docs/CONFIGURATION.md was
     * refused); a queue given with {@code --function-env} is taken as it is.
     */
    @Test
    void withoutTheStackTheEmitQueueIsTakenAsFifoOrStandardWhicheverTheDocumentSays() throws IOException {
        String eventBridge = "      eventbridge:\n        bus: \"${FANIN_EMIT_BUS_NAME}\"\n        source: fanin\n        detailType: fanin.aggregate\n";
        Path fifo = file("fifo.yaml", BUNDLED.replace(eventBridge, "      sqs:\n        queueUrl: \"${FANIN_EMIT_QUEUE_URL}\"\n        fifo: true\n"));
        Path standard = file("standard.yaml", BUNDLED.replace(eventBridge, "      sqs:\n        queueUrl: \"${FANIN_EMIT_QUEUE_URL}\"\n"));
        assertThat(Files.readString(fifo)).contains("fifo: true");

        Run asFifo = run(Map.of(), "", "config", "diff", "--location", "classpath:fanin/pipelines.yaml", fifo.toString());
        Run asStandard = run(Map.of(), "", "config", "diff", "--location", "classpath:fanin/pipelines.yaml", standard.toString());

        assertThat(asFifo.exit()).as(asFifo.out() + asFifo.err()).isZero();
        assertThat(asStandard.exit()).as(asStandard.out() + asStandard.err()).isZero();
        Run stated = run(Map.of(), "", "config", "diff", "--location", "classpath:fanin/pipelines.yaml", fifo.toString(),
                "--function-env", "FANIN_EMIT_QUEUE_URL=https://sqs.eu-west-1.amazonaws.com/123456789012/out");
        assertThat(stated.exit()).as("a queue given is taken as it is").isEqualTo(FaninCli.INVALID_INPUT);
        assertThat(stated.out()).contains("cannot run on the functions").contains("does not end in \".fifo\"");
    }

    /**
     * A publish writes over the object it compared, or only where none was: a document someone else published between
     * the comparison and the write (the confirmation waits on the operator) is not overwritten.
     */
    @Test
    void aPublishDoesNotOverwriteADocumentPublishedSinceItsComparison() {
        String key = "raced.yaml";
        ConfigStore store = new S3ConfigStore(s3, ConfigLocation.parse("s3://" + bucket + "/" + key));
        assertThat(store.read()).isEmpty();
        s3.putObject(r -> r.bucket(bucket).key(key), software.amazon.awssdk.core.sync.RequestBody.fromString(BUNDLED));

        assertThatThrownBy(() -> store.publish("first: mine", true)).hasMessageContaining("changed since it was compared");

        assertThat(store.read()).contains(BUNDLED);
        String theirs = BUNDLED.replace("      gap: 10m\n", "      gap: 20m\n");
        s3.putObject(r -> r.bucket(bucket).key(key), software.amazon.awssdk.core.sync.RequestBody.fromString(theirs));
        assertThatThrownBy(() -> store.publish("second: mine", false)).hasMessageContaining("changed since it was compared");
        assertThat(published(key)).isEqualTo(theirs);

        assertThat(store.read()).contains(theirs);
        assertThat(store.publish("third: mine", false)).startsWith("object s3://" + bucket + "/" + key + " written");
        assertThat(published(key)).isEqualTo("third: mine");
    }

    /** A bucket that does not exist is a wrong location, never "nothing published yet" (which calls every pipeline new). */
    @Test
    void aLocationInABucketThatDoesNotExistStopsTheDiffNamingTheBucket() throws IOException {
        Path bundled = file("bundled.yaml", BUNDLED);

        Run diff = fanin("", "config", "diff", "--location", "s3://no-such-bucket-" + run + "/pipelines.yaml", bundled.toString());

        assertThat(diff.exit()).as(diff.out() + diff.err()).isEqualTo(FaninCli.INVALID_INPUT);
        assertThat(diff.err()).contains("no such bucket").contains("NoSuchBucket").doesNotContain("\tat ");
        assertThat(diff.out()).doesNotContain("every pipeline is new");
    }

    /**
     * A stack reading AppConfig: {@code diff} and {@code publish} take the location from the stack and read what is
     * deployed there through the functions' own reader (Powertools' AppConfig provider over the AppConfig data API, on
     * the endpoint). moto 5.2 serves part of AppConfig's control plane and none of its data API, so
     * StartConfigurationSession gets moto's bare 404: that is as far as the real path runs here (AppConfigPublishTest
     * runs the rest against a loopback AppConfig). Both commands must then stop with one line naming the location and
     * the answer, never take the failure for "nothing published yet" (which would diff against nothing and call every
     * pipeline new); publish says first what it would have done, and creates no version in the application (on moto).
     */
    @Test
    void anAppConfigLocationIsReadThroughTheDataApiAndAFailedReadStopsBothCommands() throws IOException {
        var appConfig = new AppConfigControlPlane(UrlConnectionHttpClient.create(), credentials, LocalAwsEndpoint.REGION,
                endpoint.endpoint());
        String application = appConfig.send("CreateApplication", SdkHttpMethod.POST, "/applications", Map.of(), "application/json",
                ("{\"Name\":\"fanin-" + run + "\"}").getBytes(StandardCharsets.UTF_8)).json().path("Id").asText();
        String profile = appConfig.send("CreateConfigurationProfile", SdkHttpMethod.POST, "/applications/" + application
                + "/configurationprofiles", Map.of(), "application/json", "{\"Name\":\"pipelines\",\"LocationUri\":\"hosted\"}"
                .getBytes(StandardCharsets.UTF_8)).json().path("Id").asText();
        String location = "appconfig:" + application + "/prod/pipelines";
        String stack = stack(location);
        Path bundled = file("bundled.yaml", BUNDLED);

        Run diff = fanin("", "config", "diff", "--stack", stack, bundled.toString());
        Run publish = fanin("", "config", "publish", "--stack", stack, bundled.toString(), "--yes");

        assertThat(diff.exit()).as(diff.out() + diff.err()).isEqualTo(FaninCli.INVALID_INPUT);
        assertThat(diff.err()).startsWith("fanin config diff failed: " + location + ": Service returned HTTP status code 404"
                + " (Service: AppConfigData, Status Code: 404").doesNotContain("\tat ");
        assertThat(diff.out()).doesNotContain("every pipeline is new");
        assertThat(publish.exit()).isEqualTo(FaninCli.INVALID_INPUT);
        assertThat(publish.out()).isEqualTo("publish would create a hosted configuration version of profile pipelines of application "
                + application + " and deploy it to environment prod with deployment strategy AppConfig.AllAtOnce once it has compared "
                + bundled + " with what is published there, which it could not read (below): nothing published\n");
        assertThat(publish.err()).startsWith("fanin config publish failed: " + location + ": Service returned HTTP status code 404");
        assertThat(appConfig.id("ConfigurationProfile", "/applications/" + application + "/configurationprofiles", "pipelines"))
                .isEqualTo(profile);
        assertThatThrownBy(() -> appConfig.send("GetHostedConfigurationVersion", SdkHttpMethod.GET, "/applications/" + application
                + "/configurationprofiles/" + profile + "/hostedconfigurationversions/1", Map.of(), null, null))
                .as("no version created").hasMessageContaining("HostedConfigurationVersion not found");
    }

    @Test
    void withoutAStackOrALocationNothingIsDone() throws IOException {
        Path bundled = file("bundled.yaml", BUNDLED);
        Run neither = fanin("", "config", "publish", bundled.toString());
        Run malformed = fanin("", "config", "diff", "--location", "s3:/no-bucket", bundled.toString());
        Run noStack = fanin("", "config", "diff", "--stack", "no-such-stack-" + run, bundled.toString());

        assertThat(neither.exit()).isEqualTo(FaninCli.USAGE);
        assertThat(neither.err()).contains("name the stack with --stack NAME, or the location with --location LOCATION");
        assertThat(malformed.exit()).isEqualTo(FaninCli.USAGE);
        assertThat(malformed.err()).contains("--location must be classpath:<resource>");
        assertThat(noStack.exit()).isEqualTo(FaninCli.INVALID_INPUT);
        assertThat(noStack.err()).contains("cannot read stack no-such-stack-" + run).doesNotContain("\tat ");
    }

    /**
     * A stack on the endpoint with the parameters and output the commands read, as template.yaml deploys them with
     * {@code EmitQueueUrl} left empty (moto runs no SAM transform: no functions).
     */
    private String stack(String configLocation) {
        String name = "fanin-config-" + run + "-" + Integer.toHexString(configLocation.hashCode());
        String template = "Parameters:\n  PipelineConfigLocation: {Type: String}\n  EmitQueueUrl: {Type: String, Default: ''}\n"
                + "Resources:\n  Marker: {Type: AWS::SQS::Queue}\nOutputs:\n  OutputBusName: {Value: fanin-bus-" + run + "}\n";
        try (CloudFormationClient cloudFormation = CloudFormationClient.builder().endpointOverride(endpoint.endpoint())
                .region(LocalAwsEndpoint.REGION).httpClientBuilder(UrlConnectionHttpClient.builder())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("fanin-local", "fanin-local"))).build()) {
            cloudFormation.createStack(r -> r.stackName(name).templateBody(template)
                    .parameters(p -> p.parameterKey("PipelineConfigLocation").parameterValue(configLocation)));
        }
        return name;
    }

    /** The pipelines a function cold-started now on {@code configLocation} runs (the template's environment otherwise). */
    private List<String> pipelinesTheFunctionsRead(String configLocation) {
        Map<String, String> env = new HashMap<>(resources.functionEnvironment());
        env.putAll(awsEnvironment());
        env.put("FANIN_CONFIG", configLocation);
        return FaninRuntime.create(env, Clock.systemUTC()).engine().config().pipelines().stream().map(PipelineConfig::name).toList();
    }

    private String published(String key) {
        try {
            return s3.getObjectAsBytes(r -> r.bucket(bucket).key(key)).asUtf8String();
        } catch (NoSuchKeyException e) {
            return null;
        }
    }

    private Path file(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    private Map<String, String> awsEnvironment() {
        return Map.of("AWS_ENDPOINT_URL", endpoint.endpoint().toString(), "AWS_REGION", LocalAwsEndpoint.REGION.id(),
                "AWS_ACCESS_KEY_ID", "fanin-local", "AWS_SECRET_ACCESS_KEY", "fanin-local");
    }

    private Run fanin(String stdin, String... args) {
        return run(awsEnvironment(), stdin, args);
    }

    /** {@code fanin ARGS} with {@code env} as its environment and {@code stdin} as its input. */
    static Run run(Map<String, String> env, String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8); PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            exit = new FaninCli(FaninCli.commands()).run(args,
                    new Console(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), o, e, env));
        }
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static String bundled() {
        try (InputStream in = ConfigCommandTest.class.getClassLoader().getResourceAsStream("fanin/pipelines.yaml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
