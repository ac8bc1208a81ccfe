"""No tables file and no seed hook: the plugin resets a worker's database by
loading the preloaded models into it again (POST /_localdynamo/reset with the
worker's Namespace), sample rows included."""

JUNIOR = {"PK": {"S": "USER#junior"}, "SK": {"S": "#PROFILE#junior"}}


def test_the_models_are_there(dynamodb_client):
    names = dynamodb_client.list_tables()["TableNames"]
    assert {"ecommerce", "lambda-layers", "tenants", "DeploymentTable"} <= set(names)
    assert "Item" in dynamodb_client.get_item(TableName="ecommerce", Key=JUNIOR)


def test_a_test_deletes_a_sample_row_and_drops_a_table(dynamodb_client):
    dynamodb_client.delete_item(TableName="ecommerce", Key=JUNIOR)
    dynamodb_client.delete_table(TableName="tenants")
    assert "Item" not in dynamodb_client.get_item(TableName="ecommerce", Key=JUNIOR)


def test_the_next_test_has_them_back(dynamodb_client):
    assert "Item" in dynamodb_client.get_item(TableName="ecommerce", Key=JUNIOR)
    assert "tenants" in dynamodb_client.list_tables()["TableNames"]
