package localdynamo.sdk;

import java.util.Objects;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbBean;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbPartitionKey;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbSecondaryPartitionKey;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbSecondarySortKey;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbSortKey;

/**
 * The `mapper` scenario's class, as the Enhanced Client's guide shows a bean: a customer's
 * orders (partition key customerId, sort key orderId), found by status on the index
 * `by_status` (partition key status, sort key placedAt).
 */
@DynamoDbBean
public class Order {
    public static final String BY_STATUS = "by_status";

    private String customerId;
    private String orderId;
    private String status;
    private String placedAt;
    private Long totalCents;

    public Order() {
    }

    public Order(String customerId, String orderId, String status, String placedAt, long totalCents) {
        this.customerId = customerId;
        this.orderId = orderId;
        this.status = status;
        this.placedAt = placedAt;
        this.totalCents = totalCents;
    }

    @DynamoDbPartitionKey
    public String getCustomerId() {
        return customerId;
    }

    public void setCustomerId(String customerId) {
        this.customerId = customerId;
    }

    @DynamoDbSortKey
    public String getOrderId() {
        return orderId;
    }

    public void setOrderId(String orderId) {
        this.orderId = orderId;
    }

    @DynamoDbSecondaryPartitionKey(indexNames = BY_STATUS)
    public String getStatus() {
        return status;
    }

    public void setStatus(String status) {
        this.status = status;
    }

    @DynamoDbSecondarySortKey(indexNames = BY_STATUS)
    public String getPlacedAt() {
        return placedAt;
    }

    public void setPlacedAt(String placedAt) {
        this.placedAt = placedAt;
    }

    public Long getTotalCents() {
        return totalCents;
    }

    public void setTotalCents(Long totalCents) {
        this.totalCents = totalCents;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Order)) {
            return false;
        }
        Order other = (Order) o;
        return Objects.equals(customerId, other.customerId) && Objects.equals(orderId, other.orderId)
                && Objects.equals(status, other.status) && Objects.equals(placedAt, other.placedAt)
                && Objects.equals(totalCents, other.totalCents);
    }

    @Override
    public int hashCode() {
        return Objects.hash(customerId, orderId, status, placedAt, totalCents);
    }

    @Override
    public String toString() {
        return "Order{" + customerId + "/" + orderId + ", " + status + ", " + placedAt + ", " + totalCents + "}";
    }
}
