package dev.fanin.aws.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class DynamoDbItemSizeTest {

    @Test
    void stringsCountNameAndValueInUtf8() {
        assertThat(DynamoDbItemSize.bytes(Map.of("pk", AttributeValue.fromS("abc")))).isEqualTo(2 + 3);
        assertThat(DynamoDbItemSize.bytes(Map.of("k", AttributeValue.fromS("é✓")))).isEqualTo(1 + 2 + 3);
    }

    @Test
    void numbersCountOneBytePerTwoSignificantDigitsPlusOne() {
        assertThat(DynamoDbItemSize.numberBytes("7")).isEqualTo(2);
        assertThat(DynamoDbItemSize.numberBytes("12")).isEqualTo(2);
        assertThat(DynamoDbItemSize.numberBytes("123")).isEqualTo(3);
        assertThat(DynamoDbItemSize.numberBytes("1000000")).isEqualTo(2);
        assertThat(DynamoDbItemSize.numberBytes("0.00012")).isEqualTo(2);
        assertThat(DynamoDbItemSize.numberBytes("-12")).isEqualTo(3);
        assertThat(DynamoDbItemSize.numberBytes("1767225600123")).isEqualTo(8);
    }

    @Test
    void setsSumTheirElementsAndDocumentsAddOverhead() {
        assertThat(DynamoDbItemSize.bytes(Map.of("ids", AttributeValue.fromSs(List.of("aaaa", "bb"))))).isEqualTo(3 + 6);
        assertThat(DynamoDbItemSize.bytes(Map.of("b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[10]))))).isEqualTo(1 + 10);
        assertThat(DynamoDbItemSize.bytes(Map.of("f", AttributeValue.fromBool(true)))).isEqualTo(2);
        assertThat(DynamoDbItemSize.bytes(Map.of("l", AttributeValue.fromL(List.of())))).isEqualTo(1 + 3);
        assertThat(DynamoDbItemSize.bytes(Map.of("l", AttributeValue.fromL(List.of(AttributeValue.fromS("ab"), AttributeValue.fromN("1"))))))
                .isEqualTo(1 + 3 + 2 + (2 + 2));
        assertThat(DynamoDbItemSize.bytes(Map.of("m", AttributeValue.fromM(Map.of("xy", AttributeValue.fromS("abc"))))))
                .isEqualTo(1 + 3 + 1 + (2 + 3));
    }

    @Test
    void writeUnitsRoundUpTheLargerOfOldAndNewToWholeKilobytes() {
        assertThat(DynamoDbItemSize.writeUnits(0, 1)).isEqualTo(1);
        assertThat(DynamoDbItemSize.writeUnits(0, 1023)).isEqualTo(1);
        assertThat(DynamoDbItemSize.writeUnits(0, 1024)).isEqualTo(1);
        assertThat(DynamoDbItemSize.writeUnits(0, 1025)).isEqualTo(2);
        assertThat(DynamoDbItemSize.writeUnits(3000, 100)).isEqualTo(3);
        assertThat(DynamoDbItemSize.writeUnits(0, 0)).isEqualTo(1);
    }
}
