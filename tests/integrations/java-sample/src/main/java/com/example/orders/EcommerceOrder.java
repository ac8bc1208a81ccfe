package com.example.orders;

import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbAttribute;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbBean;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbPartitionKey;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbSecondaryPartitionKey;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbSecondarySortKey;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbSortKey;

/**
 * An order in the preloaded {@code ecommerce} table, for the enhanced client: PK = USER#name,
 * SK = ORDER#id; GSI1 is the table inverted, GSI2 the user's orders by status and date.
 */
@DynamoDbBean
public class EcommerceOrder {
    private String pk;
    private String sk;
    private String orderId;
    private String status;
    private String orderStatusDate;

    public static EcommerceOrder of(String user, String orderId, String status, String date) {
        EcommerceOrder order = new EcommerceOrder();
        order.setPK("USER#" + user);
        order.setSK("ORDER#" + orderId);
        order.setOrderId(orderId);
        order.setStatus(status);
        order.setOrderStatusDate(status + "#" + date);
        return order;
    }

    @DynamoDbPartitionKey
    @DynamoDbSecondaryPartitionKey(indexNames = "GSI2")
    @DynamoDbSecondarySortKey(indexNames = "GSI1")
    @DynamoDbAttribute("PK")
    public String getPK() {
        return pk;
    }

    public void setPK(String pk) {
        this.pk = pk;
    }

    @DynamoDbSortKey
    @DynamoDbSecondaryPartitionKey(indexNames = "GSI1")
    @DynamoDbAttribute("SK")
    public String getSK() {
        return sk;
    }

    public void setSK(String sk) {
        this.sk = sk;
    }

    @DynamoDbAttribute("OrderId")
    public String getOrderId() {
        return orderId;
    }

    public void setOrderId(String orderId) {
        this.orderId = orderId;
    }

    @DynamoDbAttribute("Status")
    public String getStatus() {
        return status;
    }

    public void setStatus(String status) {
        this.status = status;
    }

    @DynamoDbSecondarySortKey(indexNames = "GSI2")
    @DynamoDbAttribute("OrderStatusDate")
    public String getOrderStatusDate() {
        return orderStatusDate;
    }

    public void setOrderStatusDate(String orderStatusDate) {
        this.orderStatusDate = orderStatusDate;
    }
}
