"""The SDK's standard retry strategy against throttling the server injects
(SCENARIOS.md `retries`)."""

from tables import create_table


def test_retries(client, make_client, admin):
    name = create_table(client, "retries")
    admin.add_fault({"Operations": ["PutItem"], "Tables": [name], "Count": 2,
                     "Error": {"Type": "ThrottlingException"}})
    retrying = make_client(retries={"mode": "standard", "max_attempts": 3})
    answer = retrying.put_item(TableName=name, Item={"pk": {"S": "after-throttling"}})
    # RetryAttempts counts the retries: 2 retries, 3 attempts.
    assert answer["ResponseMetadata"]["RetryAttempts"] == 2
    assert client.get_item(TableName=name, Key={"pk": {"S": "after-throttling"}},
                           ConsistentRead=True)["Item"] == {"pk": {"S": "after-throttling"}}
