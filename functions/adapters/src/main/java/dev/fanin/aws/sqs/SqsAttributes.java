package dev.fanin.aws.sqs;

import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

final class SqsAttributes {

    private SqsAttributes() { }

    static MessageAttributeValue string(String value) {
        return MessageAttributeValue.builder().dataType("String").stringValue(value).build();
    }
}
