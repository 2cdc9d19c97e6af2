package dev.fanin.lambda;

import java.util.List;

/**
 * Every environment variable the functions read, by who sets it. {@code TemplateContractTest} checks that the
 * template sets exactly {@link #FROM_TEMPLATE} (plus the library settings in {@link #FOR_LIBRARIES}) and that the
 * runtime reads nothing else.
 */
public final class EnvironmentVariables {

    public static final String TABLE_NAME = "FANIN_TABLE_NAME";
    /** Where the pipeline configuration is ({@link ConfigLocation#FORMS}); optional, default {@link #DEFAULT_CONFIG}. */
    public static final String CONFIG = "FANIN_CONFIG";
    public static final String DEFAULT_CONFIG = "classpath:fanin/pipelines.yaml";
    /** Read only through {@code ${FANIN_EMIT_BUS_NAME}} references in the pipeline configuration's emit targets. */
    public static final String EMIT_BUS_NAME = "FANIN_EMIT_BUS_NAME";
    /**
     * Read only through {@code ${FANIN_EMIT_QUEUE_URL}} references in {@code emit.sqs.queueUrl}; the template's
     * {@code EmitQueueUrl} parameter, empty unless a pipeline emits to SQS.
     */
    public static final String EMIT_QUEUE_URL = "FANIN_EMIT_QUEUE_URL";
    public static final String TIMER_QUEUE_URL = "FANIN_TIMER_QUEUE_URL";
    public static final String SIDE_OUTPUT_QUEUE_URL = "FANIN_SIDE_OUTPUT_QUEUE_URL";
    public static final String DEAD_LETTER_QUEUE_URL = "FANIN_DEAD_LETTER_QUEUE_URL";
    public static final String MAX_RECEIVE_COUNT = "FANIN_MAX_RECEIVE_COUNT";
    public static final String DUE_SHARDS = "FANIN_DUE_SHARDS";
    /**
     * The ingest function's timeout in seconds (template parameter {@code IngestTimeout}): ingest's due listings wait
     * that long. Optional, 30 when absent (the template's default), so local runs need not set it.
     */
    public static final String INGEST_TIMEOUT_SECONDS = "FANIN_INGEST_TIMEOUT_SECONDS";
    /**
     * Due-bucket shards a sweep works on at once (template parameter {@code SweepParallelism}). Optional, 8 when
     * absent.
     */
    public static final String SWEEP_PARALLELISM = "FANIN_SWEEP_PARALLELISM";

    /** Set by the Lambda service in every function (never in the template). */
    public static final String AWS_REGION = "AWS_REGION";
    public static final String AWS_ACCESS_KEY_ID = "AWS_ACCESS_KEY_ID";
    public static final String AWS_SECRET_ACCESS_KEY = "AWS_SECRET_ACCESS_KEY";
    public static final String AWS_SESSION_TOKEN = "AWS_SESSION_TOKEN";
    /** Local runs only (tests, {@code fanin local}): the endpoint of every AWS client. Never set in the template. */
    public static final String AWS_ENDPOINT_URL = "AWS_ENDPOINT_URL";

    /** What {@code template.yaml} must set for every function, and what fanin's own code reads. */
    public static final List<String> FROM_TEMPLATE = List.of(TABLE_NAME, CONFIG, EMIT_BUS_NAME, EMIT_QUEUE_URL, TIMER_QUEUE_URL,
            SIDE_OUTPUT_QUEUE_URL, DEAD_LETTER_QUEUE_URL, MAX_RECEIVE_COUNT, DUE_SHARDS, INGEST_TIMEOUT_SECONDS,
            SWEEP_PARALLELISM);

    /** Set in the template for the libraries, not read by fanin's code: Powertools, log4j2 and the JVM. */
    public static final List<String> FOR_LIBRARIES = List.of("POWERTOOLS_SERVICE_NAME", "POWERTOOLS_METRICS_NAMESPACE",
            "POWERTOOLS_LOG_LEVEL", "JAVA_TOOL_OPTIONS");

    /** Set by the Lambda service, or only locally. */
    public static final List<String> FROM_LAMBDA_OR_LOCAL = List.of(AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
            AWS_SESSION_TOKEN, AWS_ENDPOINT_URL);

    private EnvironmentVariables() {
    }
}
