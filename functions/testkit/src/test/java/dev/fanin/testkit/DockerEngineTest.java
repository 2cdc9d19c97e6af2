package dev.fanin.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Testcontainers is asked for a Docker engine only when something points at one, so no-Docker logs no ERROR. */
class DockerEngineTest {

    private static final Path HOME = Path.of("/home/dev");

    @Test
    void nothingPointsAtDockerOnAMachineWithoutIt() {
        assertThat(DockerEngine.mayBeThere(Map.of(), HOME, p -> false)).isFalse();
        assertThat(DockerEngine.mayBeThere(Map.of("DOCKER_HOST", " "), HOME, p -> false)).isFalse();
    }

    @Test
    void aVariableASettingsFileOrASocketDoes() {
        assertThat(DockerEngine.mayBeThere(Map.of("DOCKER_HOST", "tcp://127.0.0.1:2375"), HOME, p -> false)).isTrue();
        assertThat(DockerEngine.mayBeThere(Map.of("TESTCONTAINERS_DOCKER_SOCKET_OVERRIDE", "/x.sock"), HOME, p -> false)).isTrue();
        for (Path present : Set.of(Path.of("/var/run/docker.sock"), HOME.resolve(".docker/run/docker.sock"),
                HOME.resolve(".colima/default/docker.sock"), HOME.resolve(".testcontainers.properties"))) {
            assertThat(DockerEngine.mayBeThere(Map.of(), HOME, present::equals)).as(present.toString()).isTrue();
        }
    }
}
