package dev.fanin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CapacityRulesTest {

    @Test
    void writesCostOneUnitPerStartedKilobyteOfTheLargerItem() {
        assertThat(CapacityRules.writeUnits(0, 1)).isEqualTo(1);
        assertThat(CapacityRules.writeUnits(0, 1024)).isEqualTo(1);
        assertThat(CapacityRules.writeUnits(0, 1025)).isEqualTo(2);
        assertThat(CapacityRules.writeUnits(3000, 10)).isEqualTo(3);
        assertThat(CapacityRules.transactionalWriteUnits(0, 1025)).isEqualTo(4);
    }

    @Test
    void strongReadsCostOneUnitPerStartedFourKilobytesAtLeastOne() {
        assertThat(CapacityRules.strongReadUnits(0)).isEqualTo(1);
        assertThat(CapacityRules.strongReadUnits(4096)).isEqualTo(1);
        assertThat(CapacityRules.strongReadUnits(4097)).isEqualTo(2);
        assertThat(CapacityRules.eventualReadUnits(4097)).isEqualTo(1);
        assertThat(CapacityRules.eventualReadUnits(0)).isEqualTo(0.5);
    }

    @Test
    void percentilesAreNearestRank() {
        long[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertThat(CloseLatency.percentile(sorted, 50)).isEqualTo(5);
        assertThat(CloseLatency.percentile(sorted, 90)).isEqualTo(9);
        assertThat(CloseLatency.percentile(sorted, 99)).isEqualTo(10);
        assertThat(CloseLatency.percentile(new long[0], 99)).isZero();
    }
}
