package dev.fanin.testkit;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.time.Duration;

/** The two HTTP calls of moto's management API that the testkit uses. */
final class MotoReset {

    private MotoReset() {
    }

    /** True when {@code GET /moto-api/} answers 200, i.e. a moto server is listening at {@code endpoint}. */
    static boolean answers(URI endpoint, Duration timeout) {
        return call(endpoint, "GET", timeout) == 200;
    }

    /** {@code POST /moto-api/reset}; true when moto confirmed that all its state is gone. */
    static boolean reset(URI endpoint, Duration timeout) {
        return call(endpoint, "POST", timeout) == 200;
    }

    private static int call(URI endpoint, String method, Duration timeout) {
        String path = method.equals("POST") ? "/moto-api/reset" : "/moto-api/";
        HttpURLConnection connection = null;
        try {
            connection = (HttpURLConnection) endpoint.resolve(path).toURL().openConnection();
            connection.setRequestMethod(method);
            connection.setConnectTimeout((int) timeout.toMillis());
            connection.setReadTimeout((int) timeout.toMillis());
            if (method.equals("POST")) {
                connection.setDoOutput(true);
                connection.getOutputStream().close();
            }
            int status = connection.getResponseCode();
            connection.getInputStream().readAllBytes();
            return status;
        } catch (IOException notAnswering) {
            return -1;
        } finally {
            if (connection != null) {
                connection.disconnect();
            }
        }
    }
}
