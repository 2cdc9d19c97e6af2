package dev.fanin.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.testcontainers.DockerClientFactory;

/**
 * Whether a Docker engine answers, asked so that no failure (not even a missing Testcontainers jar) escapes, and so
 * that a machine without Docker logs nothing: Testcontainers logs an ERROR ("Could not find a valid Docker
 * environment") whenever it finds none, which would land in the functions' logs of {@code fanin local}. It is asked
 * only when something says a Docker engine may be there: {@code DOCKER_HOST} or Testcontainers' socket override set,
 * a {@code ~/.testcontainers.properties}, or one of the usual engine sockets present.
 */
final class DockerEngine {

    /** Where Docker Engine, Docker Desktop, Colima, Rancher Desktop and Podman put their socket. */
    private static final List<String> SOCKETS = List.of("/var/run/docker.sock", "/run/docker.sock", ".docker/run/docker.sock",
            ".docker/desktop/docker.sock", ".colima/docker.sock", ".colima/default/docker.sock", ".rd/docker.sock",
            "/run/podman/podman.sock");

    private DockerEngine() {
    }

    static boolean answers() {
        if (!mayBeThere(System.getenv(), Path.of(System.getProperty("user.home", "/")), Files::exists)) {
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable noDocker) { // NoClassDefFoundError included: the runner may ship without Testcontainers
            return false;
        }
    }

    /** Whether anything points at a Docker engine: a variable, Testcontainers' settings file, or a socket. */
    static boolean mayBeThere(Map<String, String> env, Path home, Predicate<Path> exists) {
        if (isSet(env.get("DOCKER_HOST")) || isSet(env.get("TESTCONTAINERS_DOCKER_SOCKET_OVERRIDE"))
                || exists.test(home.resolve(".testcontainers.properties"))) {
            return true;
        }
        return SOCKETS.stream().map(s -> s.startsWith("/") ? Path.of(s) : home.resolve(s)).anyMatch(exists);
    }

    private static boolean isSet(String value) {
        return value != null && !value.isBlank();
    }
}
