"""PartiQL reading through secondary indexes: the ecommerce, deployments and
tenants models' access patterns written in PartiQL (GSIs, an INCLUDE
projection, a versioned update), a local index SELECT that reaches the
table's item, filters on what an index leaves out (refused only when the
read is keyed on the index), and the refusal of GSIs with multi-attribute
keys."""

import pytest

from .e2e_util import exact, expect_error, key
from .partiql_util import VE, execute


@pytest.fixture(scope="module")
def ecommerce(tables):
    """The ecommerce model's table and indexes, with a few users' orders."""
    name = tables(
        hash_key=("PK", "S"), range_key=("SK", "S"), prefix="pql-ecommerce",
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"}
                              for a in ("PK", "SK", "OrderStatusDate")],
        GlobalSecondaryIndexes=[
            {"IndexName": "GSI1",
             "KeySchema": [{"AttributeName": "SK", "KeyType": "HASH"},
                           {"AttributeName": "PK", "KeyType": "RANGE"}],
             "Projection": {"ProjectionType": "ALL"}},
            {"IndexName": "GSI2",
             "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"},
                           {"AttributeName": "OrderStatusDate", "KeyType": "RANGE"}],
             "Projection": {"ProjectionType": "ALL"}},
        ])
    return name


def put_order(dynamodb, table, user, order, status, date):
    execute(dynamodb, f"INSERT INTO \"{table}\" VALUE {{'PK': ?, 'SK': ?, 'OrderStatusDate': ?, "
            "'status': ?}", f"USER#{user}", f"ORDER#{order}", f"{status}#{date}", status)


def test_ecommerce_access_patterns_in_partiql(dynamodb, ecommerce):
    # The ecommerce model's access patterns, written in PartiQL: a user's
    # profile, a user's orders, an order's items (GSI1, the inverted index)
    # and a user's orders by status (GSI2).
    user = key()
    execute(dynamodb, f"INSERT INTO \"{ecommerce}\" VALUE {{'PK': ?, 'SK': ?, 'name': 'Sarah'}}",
            f"USER#{user}", f"#PROFILE#{user}")
    put_order(dynamodb, ecommerce, user, "1", "SHIPPED", "2024-01-02")
    put_order(dynamodb, ecommerce, user, "2", "PLACED", "2024-02-01")
    put_order(dynamodb, ecommerce, user, "3", "SHIPPED", "2024-03-05")
    put_order(dynamodb, ecommerce, "other" + user, "4", "SHIPPED", "2024-01-01")
    for item in ("a", "b"):
        execute(dynamodb, f"INSERT INTO \"{ecommerce}\" VALUE {{'PK': ?, 'SK': ?, 'qty': 1}}",
                f"ITEM#{user}{item}", f"ORDER#{user}-1")

    profile = execute(dynamodb, f"SELECT * FROM \"{ecommerce}\" WHERE PK = ? AND SK = ?",
                      f"USER#{user}", f"#PROFILE#{user}")
    assert profile["Items"][0]["name"] == {"S": "Sarah"}

    orders = execute(dynamodb, f"SELECT SK FROM \"{ecommerce}\" WHERE PK = ? AND "
                     "begins_with(SK, 'ORDER#')", f"USER#{user}")
    assert [o["SK"]["S"] for o in orders["Items"]] == ["ORDER#1", "ORDER#2", "ORDER#3"]

    items = execute(dynamodb, f"SELECT * FROM \"{ecommerce}\".\"GSI1\" WHERE SK = ? AND "
                    "begins_with(PK, 'ITEM#')", f"ORDER#{user}-1", ReturnConsumedCapacity="TOTAL")
    assert sorted(i["PK"]["S"] for i in items["Items"]) == [f"ITEM#{user}a", f"ITEM#{user}b"]

    shipped = execute(dynamodb, f"SELECT * FROM \"{ecommerce}\".\"GSI2\" WHERE PK=? AND "
                      "begins_with(OrderStatusDate, 'SHIPPED#')", f"USER#{user}")
    assert [o["SK"]["S"] for o in shipped["Items"]] == ["ORDER#1", "ORDER#3"]
    assert all(o["status"] == {"S": "SHIPPED"} for o in shipped["Items"])

    with expect_error(VE, "consistent read is not supported on Global Secondary Indexes"):
        execute(dynamodb, f"SELECT * FROM \"{ecommerce}\".\"GSI2\" WHERE PK = ?",
                f"USER#{user}", ConsistentRead=True)


def test_deployments_and_tenants_access_patterns_in_partiql(dynamodb, tables):
    # The deployments model's listDeployments (its INCLUDE index, newest
    # first) and the tenants model's versioned metadata update, in PartiQL.
    deployments = tables(
        hash_key=("PK", "S"), range_key=("SK", "S"), prefix="pql-deploy",
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"}
                              for a in ("PK", "SK", "GSI1SK")],
        GlobalSecondaryIndexes=[{
            "IndexName": "CreateDateIndex",
            "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"},
                          {"AttributeName": "GSI1SK", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "INCLUDE",
                           "NonKeyAttributes": ["CreateDate", "DeploymentId", "Status"]}}])
    for i, day in enumerate(("2024-01-01", "2024-03-01", "2024-02-01")):
        execute(dynamodb, f"INSERT INTO \"{deployments}\" VALUE {{'PK': 'DEPLOYMENTS', "
                "'SK': ?, 'GSI1SK': ?, 'CreateDate': ?, 'DeploymentId': ?, 'Status': 'DONE', "
                "'Secret': 'not projected'}", f"D#{i}", day, day, f"d{i}")
    newest = execute(dynamodb, f"SELECT * FROM \"{deployments}\".\"CreateDateIndex\" "
                     "WHERE PK = 'DEPLOYMENTS' ORDER BY GSI1SK DESC")["Items"]
    assert [d["DeploymentId"]["S"] for d in newest] == ["d1", "d2", "d0"]
    assert all("Secret" not in d for d in newest)
    with expect_error(VE, exact("One or more parameter values were invalid: Global secondary "
                                "index CreateDateIndex does not project [Secret, Other]")):
        execute(dynamodb, f"SELECT DeploymentId, Secret, Other FROM \"{deployments}\"."
                "\"CreateDateIndex\" WHERE PK = 'DEPLOYMENTS'")

    tenants = tables(hash_key=("pk", "S"), range_key=("sk", "S"), prefix="pql-tenants")
    tenant = "TENANT_ID#" + key()
    execute(dynamodb, f"INSERT INTO \"{tenants}\" VALUE {{'pk': ?, 'sk': 'METADATA', "
            "'Version': 1}", tenant)
    update = (f"UPDATE \"{tenants}\" SET Version = Version + 1, UpdatedAt = ? "
              "WHERE pk = ? AND sk = 'METADATA' AND Version = ? RETURNING ALL NEW *")
    out = execute(dynamodb, update, "2024-05-01", tenant, 1)
    assert out["Items"][0]["Version"] == {"N": "2"}
    with expect_error("ConditionalCheckFailedException"):
        execute(dynamodb, update, "2024-05-02", tenant, 1)  # a stale version loses


def test_local_index_select_reaches_the_table_item(dynamodb, tables):
    # A SELECT through a local index may name attributes outside the index's
    # projection: it reads them from the table's item.
    name = tables(
        hash_key=("pk", "S"), range_key=("sk", "S"), prefix="pql-lsi",
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"}
                              for a in ("pk", "sk", "alt")],
        LocalSecondaryIndexes=[{
            "IndexName": "by-alt",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "alt", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    pk = key()
    execute(dynamodb, f"INSERT INTO \"{name}\" VALUE {{'pk': ?, 'sk': 's1', 'alt': 'a1', "
            "'data': 'one'}", pk)
    out = execute(dynamodb, f"SELECT data FROM \"{name}\".\"by-alt\" WHERE pk = ? AND alt = 'a1'",
                  pk, ConsistentRead=True)
    assert out["Items"] == [{"data": {"S": "one"}}]
    keys_only = execute(dynamodb, f"SELECT * FROM \"{name}\".\"by-alt\" WHERE pk = ?", pk)
    assert keys_only["Items"] == [{"pk": {"S": pk}, "sk": {"S": "s1"}, "alt": {"S": "a1"}}]


def test_a_keyed_index_read_may_not_filter_on_what_the_index_leaves_out(dynamodb, tables):
    # As the public conformance suite captured it (2026): keyed on the
    # index's partition key (= or IN, at the top level), a filter on an
    # attribute the index does not project is refused, for a GSI and an LSI
    # alike; unkeyed (or keyed only inside an OR) the read scans the index,
    # where the attribute is simply absent.
    name = tables(
        hash_key=("pk", "S"), range_key=("sk", "S"), prefix="pql-unproj",
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"}
                              for a in ("pk", "sk", "g", "l")],
        GlobalSecondaryIndexes=[{
            "IndexName": "gsi-inc", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["proj"]}}],
        LocalSecondaryIndexes=[{
            "IndexName": "lsi-keys",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "l", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    pk, g = key(), key()
    for sk, proj in (("s1", "p1"), ("s2", "p2")):
        execute(dynamodb, f"INSERT INTO \"{name}\" VALUE {{'pk': ?, 'sk': ?, 'g': ?, 'l': ?, "
                "'proj': ?, 'np': 'np1'}", pk, sk, g, "l" + sk, proj)

    def refused(index):
        return exact("One or more parameter values were invalid: Secondary index "
                     f"{index} does not project one or more filter attributes: [np]")

    gsi, lsi = f"\"{name}\".\"gsi-inc\"", f"\"{name}\".\"lsi-keys\""
    for where in ("g = ? AND np = 'np1'", "g = ? AND np IS MISSING",
                  "g = ? AND begins_with(np, 'n')", "g = ? AND NOT np = 'np1'",
                  "g IN [?, 'other'] AND np = 'np1'"):
        with expect_error(VE, refused("gsi-inc")):
            execute(dynamodb, f"SELECT pk FROM {gsi} WHERE {where}", g)
    with expect_error(VE, refused("lsi-keys")):
        execute(dynamodb, f"SELECT pk FROM {lsi} WHERE pk = ? AND np = 'np1'", pk)
    with expect_error(VE, refused("lsi-keys")):
        execute(dynamodb, f"SELECT pk FROM {lsi} WHERE pk = ? AND l BETWEEN 'a' AND 'z' "
                "AND np = 'np1'", pk)

    # Unkeyed: a scan of the index, where np is absent.
    assert execute(dynamodb, f"SELECT pk FROM {gsi} WHERE np = 'np1'")["Items"] == []
    assert execute(dynamodb, f"SELECT pk FROM {lsi} WHERE np = 'np1'")["Items"] == []
    # A projected attribute filters as usual; an OR at the top is not keyed.
    assert execute(dynamodb, f"SELECT sk FROM {gsi} WHERE g = ? AND proj = 'p2'",
                   g)["Items"] == [{"sk": {"S": "s2"}}]
    both = execute(dynamodb, f"SELECT sk FROM {gsi} WHERE (g = ? AND np = 'np1') OR "
                   "(g = ? AND proj = 'p1')", g, g)["Items"]
    assert both == [{"sk": {"S": "s1"}}]


def test_multi_attribute_index_is_refused(dynamodb, tables):
    # DynamoDB's PartiQL does not read a GSI whose key has several HASH or
    # RANGE attributes, in ExecuteStatement and in a batch (where that refusal
    # comes before the batch's key rule); the table itself stays readable.
    refused = ("PartiQL statements cannot be executed on tables with multi-attribute HASH "
               "keys or multi-attribute RANGE keys.")
    name = tables(
        hash_key=("id", "S"), prefix="pql-multi",
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"}
                              for a in ("id", "h1", "h2", "r1")],
        GlobalSecondaryIndexes=[{
            "IndexName": "gsi",
            "KeySchema": [{"AttributeName": "h1", "KeyType": "HASH"},
                          {"AttributeName": "h2", "KeyType": "HASH"},
                          {"AttributeName": "r1", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "ALL"}}])
    execute(dynamodb, f"INSERT INTO \"{name}\" VALUE {{'id': 'i1', 'h1': 'a', 'h2': 'x', "
            "'r1': 'm'}")
    with expect_error(VE, exact(refused)):
        execute(dynamodb, f"SELECT * FROM \"{name}\".\"gsi\" WHERE h1 = 'a' AND h2 = 'x'")
    responses = dynamodb.batch_execute_statement(Statements=[
        {"Statement": f"SELECT * FROM \"{name}\".\"gsi\" WHERE h1 = 'a' AND h2 = 'x'"},
        {"Statement": f"SELECT * FROM \"{name}\" WHERE id = 'i1'"}])["Responses"]
    assert responses[0]["Error"] == {"Code": "ValidationError", "Message": refused}
    assert responses[1]["Item"]["id"] == {"S": "i1"}
    # The refusal comes before the rest of the statement is parsed: a
    # COUNT(*), which PartiQL does not parse, gets it too.
    with expect_error(VE, exact(refused)):
        execute(dynamodb, f"SELECT COUNT(*) FROM \"{name}\".\"gsi\"")
    with expect_error(VE, "^Unexpected path component"):
        execute(dynamodb, f"SELECT COUNT(*) FROM \"{name}\"")
    # A statement that is not well formed is answered as such first
    # (captured 2026-10), as is a parameter that is no number.
    malformed = "Statement wasn't well formed, can't be processed: "
    with expect_error(VE, exact(malformed + "Unexpected term")):
        execute(dynamodb, f"SELECT * FROM \"{name}\".\"gsi\" WHERE")
    with expect_error(VE, exact(malformed)):
        execute(dynamodb, f"SELECT * FROM \"{name}\".\"gsi\" WHERE h1 = 1e99999999999")
    with expect_error(VE, exact("The parameter cannot be converted to a numeric value: "
                                "1e99999999999")):
        dynamodb.execute_statement(Statement=f"SELECT * FROM \"{name}\".\"gsi\" WHERE h1 = ?",
                                   Parameters=[{"N": "1e99999999999"}])
