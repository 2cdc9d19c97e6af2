package dev.fanin.lambda;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Context} of one in-process invocation (by {@code fanin local}, {@code fanin replay} or a test): a request
 * id, and the remaining time counting down from the function's timeout (the sweeper sizes its work from it), on the
 * run's clock (the wall clock locally, the simulated one in a replay, a fixed one in a test that sets the remaining
 * time). Never used by the Lambda runtime, which passes its own.
 */
public final class InProcessContext implements Context {

    private static final Logger LOG = LoggerFactory.getLogger("dev.fanin.local.LambdaLogger");

    private final String functionName;
    private final String requestId;
    private final String logStream;
    private final Clock clock;
    private final Instant deadline;

    public InProcessContext(String functionName, String requestId, String logStream, Duration timeout, Clock clock) {
        this.functionName = functionName;
        this.requestId = requestId;
        this.logStream = logStream;
        this.clock = clock;
        this.deadline = clock.instant().plus(timeout);
    }

    @Override
    public String getAwsRequestId() {
        return requestId;
    }

    @Override
    public String getLogGroupName() {
        return "/aws/lambda/" + functionName;
    }

    @Override
    public String getLogStreamName() {
        return logStream;
    }

    @Override
    public String getFunctionName() {
        return functionName;
    }

    @Override
    public String getFunctionVersion() {
        return "$LATEST";
    }

    @Override
    public String getInvokedFunctionArn() {
        return "arn:aws:lambda:us-east-1:123456789012:function:" + functionName;
    }

    @Override
    public CognitoIdentity getIdentity() {
        return null;
    }

    @Override
    public ClientContext getClientContext() {
        return null;
    }

    /** Milliseconds until the timeout; 0 once it has passed. */
    @Override
    public int getRemainingTimeInMillis() {
        long remaining = Duration.between(clock.instant(), deadline).toMillis();
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, remaining));
    }

    @Override
    public int getMemoryLimitInMB() {
        return 1024;
    }

    @Override
    public LambdaLogger getLogger() {
        return new LambdaLogger() {
            @Override
            public void log(String message) {
                LOG.info(message);
            }

            @Override
            public void log(byte[] message) {
                LOG.info(new String(message, StandardCharsets.UTF_8));
            }
        };
    }
}
