package dev.fanin.testkit;

import org.testcontainers.DockerClientFactory;

/** Whether a Docker engine answers, asked so that no failure (not even a missing Testcontainers jar) escapes. */
final class DockerEngine {

    private DockerEngine() {
    }

    static boolean answers() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable noDocker) { // NoClassDefFoundError included: the runner may ship without Testcontainers
            return false;
        }
    }
}
