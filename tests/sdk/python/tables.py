"""Tables the scenarios make: named after the scenario and this SDK
(`attribute_types_python`), on-demand unless a scenario says otherwise."""


def table_name(scenario):
    return "{}_python".format(scenario)


def create_table(client, scenario, hash_key=("pk", "S"), range_key=None, **extra):
    """CreateTable through the client, then its table-exists waiter; returns
    the name. Extra keywords are CreateTable members (indexes, streams...)."""
    name = table_name(scenario)
    keys = [{"AttributeName": hash_key[0], "KeyType": "HASH"}]
    definitions = [{"AttributeName": hash_key[0], "AttributeType": hash_key[1]}]
    if range_key:
        keys.append({"AttributeName": range_key[0], "KeyType": "RANGE"})
        definitions.append({"AttributeName": range_key[0], "AttributeType": range_key[1]})
    definitions += extra.pop("ExtraDefinitions", [])
    extra.setdefault("BillingMode", "PAY_PER_REQUEST")
    client.create_table(TableName=name, KeySchema=keys, AttributeDefinitions=definitions, **extra)
    client.get_waiter("table_exists").wait(TableName=name, WaiterConfig={"Delay": 1})
    return name
