"""PartiQL's ExecuteStatement through boto3 and the AWS CLI: SELECT, INSERT,
UPDATE and DELETE with ? parameters, literals of every type, RETURNING,
Limit and NextToken paging, ORDER BY, SELECTs that read by key rather than
scanning, the FROM-first UPDATE form and condition functions, and the
statement, grammar and parameter errors as DynamoDB words them."""

import json

from .e2e_util import av, exact, expect_error, key, raw_op
from .partiql_util import MALFORMED, NO_KEY, VE, execute
from .partiql_util import rtbl  # fixtures


def select_all(dynamodb, statement, *params, **kwargs):
    """Every item of a SELECT, following NextToken; also the page count."""
    items, pages, token = [], 0, None
    while True:
        extra = dict(kwargs)
        if token:
            extra["NextToken"] = token
        page = execute(dynamodb, statement, *params, **extra)
        pages += 1
        items.extend(page["Items"])
        token = page.get("NextToken")
        if not token:
            return items, pages


def test_insert_then_select_round_trips_every_literal_type(dynamodb, rtbl):
    # INSERT ... VALUE {...} stores strings, numbers, booleans, null, lists,
    # maps, string and number sets, and ? parameters (here a binary) as the
    # DynamoDB types they denote; SELECT * returns the item as stored.
    pk = key()
    execute(dynamodb,
            f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': 1, 's': 'it''s', 'n': -1.5e1, "
            "'t': true, 'f': false, 'z': null, 'l': [1, 'two', [3]], 'm': {'in': {'deep': 'x'}}, "
            "'ss': <<'a', 'b'>>, 'ns': <<1, 2>>, 'b': ?}", pk, b"\x00\x01")
    out = execute(dynamodb, f"SELECT * FROM \"{rtbl}\" WHERE pk = ? AND sk = 1", pk)
    assert len(out["Items"]) == 1
    item = out["Items"][0]
    assert item["s"] == {"S": "it's"}
    assert item["n"] == {"N": "-15"}
    assert item["t"] == {"BOOL": True} and item["f"] == {"BOOL": False}
    assert item["z"] == {"NULL": True}
    assert item["l"] == {"L": [{"N": "1"}, {"S": "two"}, {"L": [{"N": "3"}]}]}
    assert item["m"] == {"M": {"in": {"M": {"deep": {"S": "x"}}}}}
    assert sorted(item["ss"]["SS"]) == ["a", "b"]
    assert sorted(item["ns"]["NS"]) == ["1", "2"]
    assert item["b"] == {"B": b"\x00\x01"}
    got = dynamodb.get_item(TableName=rtbl, Key={"pk": av(pk), "sk": av(1)})["Item"]
    assert got == item


def test_insert_over_an_existing_item_is_a_duplicate(dynamodb, rtbl):
    # INSERT is not an upsert: an item with the same key makes it fail with
    # DuplicateItemException, and the stored item is unchanged.
    pk = key()
    execute(dynamodb, f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': 1, 'v': 'first'}}", pk)
    with expect_error("DuplicateItemException", exact("Duplicate primary key exists in table")):
        execute(dynamodb, f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': 1, 'v': 'second'}}", pk)
    got = dynamodb.get_item(TableName=rtbl, Key={"pk": av(pk), "sk": av(1)})["Item"]
    assert got["v"] == {"S": "first"}


def test_select_where_forms(dynamodb, rtbl):
    # WHERE supports comparisons, BETWEEN, IN, AND/OR/NOT, IS [NOT] MISSING,
    # begins_with, contains, attribute_type, size and nested paths.
    pk = key()
    for i in range(6):
        execute(dynamodb,
                f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': ?, 'name': ?, 'tags': ?, "
                "'info': {'list': [?, 'x']}}", pk, i, f"name-{i}", {f"t{i}", "all"}, i * 10)
    execute(dynamodb, f"UPDATE \"{rtbl}\" REMOVE tags WHERE pk = ? AND sk = 5", pk)

    def sks(where, *params):
        out = execute(dynamodb, f"SELECT sk FROM \"{rtbl}\" WHERE pk = ? AND {where}", pk, *params)
        return sorted(int(item["sk"]["N"]) for item in out["Items"])

    assert sks("sk > 3") == [4, 5]
    assert sks("sk BETWEEN ? AND ?", 1, 2) == [1, 2]
    assert sks("sk IN (0, 3) OR name = 'name-5'") == [0, 3, 5]
    assert sks("NOT sk <= 3") == [4, 5]
    assert sks("tags IS MISSING") == [5]
    assert sks("tags IS NOT MISSING AND contains(tags, 't2')") == [2]
    assert sks("begins_with(name, 'name-') AND sk <> 0") == [1, 2, 3, 4, 5]
    assert sks("attribute_type(tags, 'SS') AND size(tags) = 2 AND sk < 2") == [0, 1]
    assert sks("info.list[0] >= 40") == [4, 5]


def test_select_projection_names_values_by_their_last_path_element(dynamodb, rtbl):
    # A projection list returns just those values, each named by the last
    # name of its path (m.mid.deep comes back as "deep").
    pk = key()
    execute(dynamodb, f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': 1, 'a': 1, 'b': 2, "
            "'m': {'mid': {'deep': 'x'}}}", pk)
    out = execute(dynamodb, f"SELECT a, m.mid.deep FROM \"{rtbl}\" WHERE pk = ?", pk)
    assert out["Items"] == [{"a": {"N": "1"}, "deep": {"S": "x"}}]


def test_select_pinned_to_a_partition_reads_only_that_partition(dynamodb, tables):
    # A SELECT whose WHERE fixes the partition key (=, IN, or equalities
    # ORed) is a Query: it reads (and is charged for) those partitions alone.
    # Without it, the same WHERE scans the table.
    name = tables(prefix="pql-cost")
    big = "x" * 3000
    for i in range(20):
        dynamodb.put_item(TableName=name, Item={"pk": av(f"p{i}"), "big": av(big)})
    pinned = execute(dynamodb, f"SELECT * FROM \"{name}\" WHERE pk = 'p3'",
                     ReturnConsumedCapacity="TOTAL")
    assert [i["pk"]["S"] for i in pinned["Items"]] == ["p3"]
    assert pinned["ConsumedCapacity"]["CapacityUnits"] == 0.5
    several = execute(dynamodb, f"SELECT pk FROM \"{name}\" WHERE pk IN ['p1', 'p2', 'p9']",
                      ReturnConsumedCapacity="TOTAL")
    assert sorted(i["pk"]["S"] for i in several["Items"]) == ["p1", "p2", "p9"]
    assert several["ConsumedCapacity"]["CapacityUnits"] <= 1.5
    ored = execute(dynamodb, f"SELECT pk FROM \"{name}\" WHERE pk = 'p4' OR pk = 'p5'",
                   ReturnConsumedCapacity="TOTAL")
    assert sorted(i["pk"]["S"] for i in ored["Items"]) == ["p4", "p5"]
    assert ored["ConsumedCapacity"]["CapacityUnits"] <= 1.0
    scanned = execute(dynamodb, f"SELECT * FROM \"{name}\" WHERE big = 'nothing'",
                      ReturnConsumedCapacity="TOTAL")
    assert scanned["Items"] == []
    assert scanned["ConsumedCapacity"]["CapacityUnits"] > 5


def test_limit_and_next_token_page_through_a_select(dynamodb, rtbl):
    # Limit caps the items evaluated per page; NextToken resumes where the
    # page stopped, for a partition and for a scan with a filter alike.
    pk = key()
    for i in range(7):
        execute(dynamodb, f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': ?}}", pk, i)
    items, pages = select_all(dynamodb, f"SELECT sk FROM \"{rtbl}\" WHERE pk = ?", pk, Limit=3)
    assert [int(i["sk"]["N"]) for i in items] == list(range(7))
    assert pages == 3
    items, pages = select_all(dynamodb, f"SELECT sk FROM \"{rtbl}\" WHERE pk IN [?, 'none']",
                              pk, Limit=2)
    assert [int(i["sk"]["N"]) for i in items] == list(range(7))
    items, _ = select_all(dynamodb, f"SELECT sk FROM \"{rtbl}\" WHERE sk >= 0 AND pk = ?",
                          pk, Limit=4, ConsistentRead=True)
    assert len(items) == 7
    with expect_error(VE, exact("Invalid NextToken")):
        execute(dynamodb, f"SELECT * FROM \"{rtbl}\"", NextToken="not-a-token")


def test_order_by_key_attributes(dynamodb, rtbl):
    # ORDER BY reads a partition in either direction of its sort key, and
    # orders several partitions (IN) by the partition key; it takes key
    # attributes only, and needs the partition key in the WHERE.
    first, second = "a" + key(), "b" + key()
    for pk in (first, second):
        for i in range(3):
            execute(dynamodb, f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': ?, 'v': 1}}", pk, i)
    out = execute(dynamodb, f"SELECT sk FROM \"{rtbl}\" WHERE pk = ? ORDER BY sk DESC", first)
    assert [int(i["sk"]["N"]) for i in out["Items"]] == [2, 1, 0]
    items, _ = select_all(dynamodb, f"SELECT pk, sk FROM \"{rtbl}\" WHERE pk IN [?, ?] "
                          "ORDER BY pk DESC, sk ASC", first, second, Limit=2)
    assert [(i["pk"]["S"], int(i["sk"]["N"])) for i in items] == \
        [(second, 0), (second, 1), (second, 2), (first, 0), (first, 1), (first, 2)]
    with expect_error(VE, exact("Variable reference v in ORDER BY clause must be part of the "
                                "primary key")):
        execute(dynamodb, f"SELECT * FROM \"{rtbl}\" WHERE pk = ? ORDER BY v", first)
    with expect_error(VE, "non-optional hash key condition"):
        execute(dynamodb, f"SELECT * FROM \"{rtbl}\" WHERE sk = 1 ORDER BY sk")


def test_update_set_remove_and_returning(dynamodb, rtbl):
    # UPDATE applies SET (arithmetic, list_append, set_add, nested paths) and
    # REMOVE; RETURNING ALL/MODIFIED OLD/NEW * returns the item in Items.
    pk = key()
    execute(dynamodb, f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': 1, 'n': 1, 'l': [1], "
            "'tags': <<'a'>>, 'm': {'x': 1}, 'gone': 'bye'}", pk)
    out = execute(dynamodb,
                  f"UPDATE \"{rtbl}\" SET n = n + ?, l = list_append(l, [2]), "
                  "tags = set_add(tags, <<'b'>>), m.y = 'new' REMOVE gone "
                  "WHERE pk = ? AND sk = 1 RETURNING ALL NEW *", 4, pk)
    item = out["Items"][0]
    assert item["n"] == {"N": "5"}
    assert item["l"] == {"L": [{"N": "1"}, {"N": "2"}]}
    assert sorted(item["tags"]["SS"]) == ["a", "b"]
    assert item["m"] == {"M": {"x": {"N": "1"}, "y": {"S": "new"}}}
    assert "gone" not in item
    out = execute(dynamodb, f"UPDATE \"{rtbl}\" SET n = 9 WHERE pk = ? AND sk = 1 "
                  "RETURNING MODIFIED OLD *", pk)
    assert out["Items"] == [{"n": {"N": "5"}}]
    out = execute(dynamodb, f"UPDATE \"{rtbl}\" SET n = 10 WHERE pk = ? AND sk = 1", pk)
    assert out["Items"] == []


def test_set_add_and_set_delete(dynamodb, rtbl):
    # set_add adds members (creating a missing set), set_delete removes them
    # (removing the attribute with its last member, leaving a missing one
    # missing); the names are case-insensitive and a parameter may carry the set.
    pk = key()
    t = f"\"{rtbl}\""
    execute(dynamodb, f"INSERT INTO {t} VALUE {{'pk': ?, 'sk': 1, 'ss': <<'a', 'b'>>}}", pk)
    execute(dynamodb, f"UPDATE {t} SET ss = SET_ADD(ss, <<'c'>>) SET ns = set_add(ns, ?) "
            "SET gone = set_delete(gone, <<'x'>>) WHERE pk = ? AND sk = 1", {1, 2}, pk)
    got = dynamodb.get_item(TableName=rtbl, Key={"pk": av(pk), "sk": av(1)})["Item"]
    assert sorted(got["ss"]["SS"]) == ["a", "b", "c"]
    assert sorted(got["ns"]["NS"]) == ["1", "2"]
    assert "gone" not in got
    execute(dynamodb, f"UPDATE {t} SET ss = set_delete(ss, <<'a', 'b', 'c'>>) "
            "WHERE pk = ? AND sk = 1", pk)
    got = dynamodb.get_item(TableName=rtbl, Key={"pk": av(pk), "sk": av(1)})["Item"]
    assert "ss" not in got


def test_update_needs_an_existing_item_and_its_conditions(dynamodb, rtbl):
    # UPDATE changes an existing item only; extra WHERE conditions must hold
    # (else ConditionalCheckFailedException, nothing written); the WHERE must
    # name the whole key.
    pk = key()
    with expect_error("ConditionalCheckFailedException", exact("The conditional request failed")):
        execute(dynamodb, f"UPDATE \"{rtbl}\" SET a = 1 WHERE pk = ? AND sk = 1", pk)
    assert "Item" not in dynamodb.get_item(TableName=rtbl, Key={"pk": av(pk), "sk": av(1)})
    execute(dynamodb, f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': 1, 'v': 1}}", pk)
    with expect_error("ConditionalCheckFailedException"):
        execute(dynamodb, f"UPDATE \"{rtbl}\" SET v = 2 WHERE pk = ? AND sk = 1 AND v = 5", pk)
    execute(dynamodb, f"UPDATE \"{rtbl}\" SET v = 2 WHERE pk = ? AND sk = 1 AND v = 1", pk)
    with expect_error(VE, exact(NO_KEY)):
        execute(dynamodb, f"UPDATE \"{rtbl}\" SET v = 3 WHERE pk = ?", pk)
    got = dynamodb.get_item(TableName=rtbl, Key={"pk": av(pk), "sk": av(1)})["Item"]
    assert got["v"] == {"N": "2"}


def test_failed_condition_returns_the_item_when_asked(server_url, dynamodb, rtbl):
    # ReturnValuesOnConditionCheckFailure ALL_OLD puts the current item in
    # the ConditionalCheckFailedException.
    pk = key()
    execute(dynamodb, f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': 1, 'v': 1}}", pk)
    status, body = raw_op(server_url, "ExecuteStatement", {
        "Statement": f"UPDATE \"{rtbl}\" SET v = 2 WHERE pk = '{pk}' AND sk = 1 AND v = 7",
        "ReturnValuesOnConditionCheckFailure": "ALL_OLD"})
    assert status == 400
    assert body["__type"].endswith("#ConditionalCheckFailedException")
    assert body["Item"] == {"pk": {"S": pk}, "sk": {"N": "1"}, "v": {"N": "1"}}


def test_delete(dynamodb, rtbl):
    # DELETE removes the item its WHERE keys; RETURNING ALL OLD * returns it;
    # an absent item is a no-op; a false extra condition on a present item
    # fails the delete.
    pk = key()
    execute(dynamodb, f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': 1, 'v': 1}}", pk)
    with expect_error("ConditionalCheckFailedException"):
        execute(dynamodb, f"DELETE FROM \"{rtbl}\" WHERE pk = ? AND sk = 1 AND v = 2", pk)
    out = execute(dynamodb, f"DELETE FROM \"{rtbl}\" WHERE pk = ? AND sk = 1 RETURNING ALL OLD *",
                  pk)
    assert out["Items"] == [{"pk": {"S": pk}, "sk": {"N": "1"}, "v": {"N": "1"}}]
    assert "Item" not in dynamodb.get_item(TableName=rtbl, Key={"pk": av(pk), "sk": av(1)})
    out = execute(dynamodb, f"DELETE FROM \"{rtbl}\" WHERE pk = ? AND sk = 1 AND v = 2 "
                  "RETURNING ALL OLD *", pk)
    assert out["Items"] == []
    with expect_error(VE, exact(NO_KEY)):
        execute(dynamodb, f"DELETE FROM \"{rtbl}\" WHERE sk = 1")


def test_statement_errors(dynamodb, rtbl):
    # Syntax errors, parameter counts, unknown tables and indexes, and
    # consistent reads of a global index are refused as DynamoDB refuses them.
    with expect_error(VE, "^" + MALFORMED):
        execute(dynamodb, f"SELECT * FROM \"{rtbl}\" WHERE")
    with expect_error(VE, exact(MALFORMED + "Expected data manipulation")):
        execute(dynamodb, "DROP TABLE x")
    with expect_error(VE, exact("Number of parameters in request and statement don't match.")):
        execute(dynamodb, f"SELECT * FROM \"{rtbl}\" WHERE pk = ? AND sk = ?", "a")
    with expect_error("ResourceNotFoundException"):
        execute(dynamodb, "SELECT * FROM \"no-such-table\"")
    with expect_error("ResourceNotFoundException"):
        execute(dynamodb, "INSERT INTO \"no-such-table\" VALUE {'pk': 'a'}")
    with expect_error(VE, exact("The table does not have the specified index")):
        execute(dynamodb, f"SELECT * FROM \"{rtbl}\".\"nope\"")
    for empty in (f"\"{rtbl}\".\"\"", "\"\"", "\"\".\"x\""):
        with expect_error(VE, exact("Path component cannot be an empty string")):
            execute(dynamodb, f"SELECT * FROM {empty}")
    with expect_error(VE, "Member must have length greater than or equal to 1"):
        dynamodb.execute_statement(Statement=f"SELECT * FROM \"{rtbl}\"", Parameters=[])
    with expect_error(VE, "Member must have length less than or equal to 8192"):
        execute(dynamodb, "SELECT * FROM t WHERE a = '" + "x" * 8200 + "'")
    with expect_error(VE, "Type mismatch for key sk expected: N actual: S"):
        execute(dynamodb, f"INSERT INTO \"{rtbl}\" VALUE {{'pk': 'a', 'sk': 'not-a-number'}}")
    with expect_error(VE, "The provided key element does not match the schema"):
        execute(dynamodb, f"DELETE FROM \"{rtbl}\" WHERE pk = 'a' AND sk = 'x'")


def test_grammar_errors_as_dynamodb_words_them(dynamodb, rtbl):
    # DynamoDB's parser names what it met: a missing term, a keyword or an
    # operator where a term should start, a dangling AND, text left after the
    # statement, an alias, a number out of range (with its place in the
    # value), a reserved word after a dot; and it skips -- and /* */ comments.
    t = f"\"{rtbl}\""
    cases = [
        (f"SELECT * FROM {t} WHERE", MALFORMED + "Unexpected term"),
        (f"SELECT * FROM {t} WHERE ORDER BY pk", MALFORMED + "Unexpected keyword"),
        (f"SELECT * FROM {t} WHERE IS NULL", MALFORMED + "Unexpected operator"),
        (f"SELECT * FROM {t} WHERE pk = 'a' AND",
         MALFORMED + "Missing right-hand side expression of infix operator"),
        (f"SELECT * FROM {t} WHERE pk = 'a' foo", MALFORMED + "Unexpected token after expression"),
        ("DELETE FROM WHERE pk = 'a'", MALFORMED + "Expected identifier for simple path"),
        (f"SELECT * FROM {t} WHERE pk = 1 # note", MALFORMED),
        (f"SELECT * FROM {t} WHERE pk = 1e99999999999", MALFORMED),
        (f"SELECT * FROM {t} x WHERE pk = 'a'", "Aliasing is not supported"),
        (f"INSERT INTO {t} VALUE {{'pk': 'a', 'sk': 1, 'l': [1, 1e126]}}",
         "Number overflow. Attempting to store a number with magnitude larger than supported "
         "range under root[1]"),
        (f"SELECT * FROM {t} WHERE m.inner = 1", MALFORMED + "Invalid path dot component"),
        (f"SELECT * FROM {t} WHERE x IS FOO", MALFORMED + "Expected type name"),
        (f"SELECT * FROM {t} WHERE pk = 'a' AND x = '1' OR pk = 'a' AND sk = 2",
         "Overlapping conditions with range keys are not supported in where clause"),
        (f"SELECT * FROM {t} WHERE pk = 'a' AND EXISTS(x)",
         "Unrecognized function: exists at 1:{}:6".format(
             len(f"SELECT * FROM {t} WHERE pk = 'a' AND ") + 1)),
    ]
    for statement, message in cases:
        with expect_error(VE, exact(message)):
            execute(dynamodb, statement)
    pk = key()
    execute(dynamodb, f"-- a note\nINSERT INTO {t} /* the item */ VALUE {{'pk': ?, 'sk': 1}}", pk)
    assert len(execute(dynamodb, f"SELECT * FROM {t} WHERE pk = ? -- done", pk)["Items"]) == 1


def test_condition_function_compared_with_a_boolean(dynamodb, rtbl):
    # `attribute_exists(a) = true` parses, as on DynamoDB: the function's
    # truth compared with a boolean literal (= false and <> true negate it).
    t = f"\"{rtbl}\""
    pk = key()
    execute(dynamodb, f"INSERT INTO {t} VALUE {{'pk': ?, 'sk': 1, 'a': 1}}", pk)
    execute(dynamodb, f"INSERT INTO {t} VALUE {{'pk': ?, 'sk': 2}}", pk)
    for condition, expected in [("attribute_exists(a) = true", ["1"]),
                                ("attribute_exists(a) = FALSE", ["2"]),
                                ("attribute_exists(a) <> true", ["2"]),
                                ("attribute_not_exists(a) = true", ["2"])]:
        found = execute(dynamodb, f"SELECT sk FROM {t} WHERE pk = ? AND {condition}", pk)
        assert [i["sk"]["N"] for i in found["Items"]] == expected, condition


def test_from_first_update_and_condition_functions(dynamodb, rtbl):
    # FROM "t" WHERE <key> SET/REMOVE is PartiQL's other UPDATE form; the
    # WHERE takes attribute_exists / attribute_not_exists (any case) and IS
    # with a type name, as conditions on the write or filters of a SELECT.
    t = f"\"{rtbl}\""
    pk = key()
    execute(dynamodb, f"INSERT INTO {t} VALUE {{'pk': ?, 'sk': 1, 'a': 1, 'b': 'bee'}}", pk)
    execute(dynamodb, f"FROM {t} WHERE pk = ? AND sk = 1 AND ATTRIBUTE_EXISTS(a) SET c = ? "
            "REMOVE b", pk, 7)
    got = dynamodb.get_item(TableName=rtbl, Key={"pk": av(pk), "sk": av(1)})["Item"]
    assert got == {"pk": {"S": pk}, "sk": {"N": "1"}, "a": {"N": "1"}, "c": {"N": "7"}}
    with expect_error("ConditionalCheckFailedException"):
        execute(dynamodb, f"UPDATE {t} SET y = 1 WHERE pk = ? AND sk = 1 AND "
                "attribute_not_exists(c)", pk)
    with expect_error(VE, exact(NO_KEY)):
        execute(dynamodb, f"FROM {t} SET c = 1")
    found = execute(dynamodb, f"SELECT sk FROM {t} WHERE pk = ? AND a IS INT AND c IS NUMERIC "
                    "AND b IS MISSING AND a IS NOT STRING", pk)
    assert found["Items"] == [{"sk": {"N": "1"}}]
    # Four of PartiQL's type names are refused (2026-08; this test asked for
    # IS INT4 before, which DynamoDB does not run).
    for type_name in ("INT4", "INT8", "DOUBLE PRECISION", "CHARACTER VARYING"):
        with expect_error(VE, exact("Unsupported operation: IsType")):
            execute(dynamodb, f"SELECT sk FROM {t} WHERE pk = ? AND a IS {type_name}", pk)


def test_parameter_numbers_are_read_as_dynamodb_reads_them(dynamodb, rtbl):
    # A parameter number that Java's BigDecimal cannot read is refused with
    # its text; the first problem in document order wins over nesting.
    statement = f"SELECT * FROM \"{rtbl}\" WHERE pk = 'p' AND n = ?"
    unconvertible = "The parameter cannot be converted to a numeric value"
    for text in ("1e99999999999", "abc", "1.2.3"):
        with expect_error(VE, exact(unconvertible + ": " + text)):
            dynamodb.execute_statement(Statement=statement, Parameters=[{"N": text}])
    with expect_error(VE, exact(unconvertible)):
        dynamodb.execute_statement(Statement=statement, Parameters=[{"N": ""}])
    with expect_error(VE, exact(unconvertible + ": x")):
        dynamodb.execute_statement(Statement=statement,
                                   Parameters=[{"M": {"a": {"NS": ["1", "x"]}}}])
    deep = {"S": "leaf"}
    for _ in range(40):
        deep = {"M": {"n": deep}}
    with expect_error(VE, "^Nesting Levels have exceeded supported limits"):
        dynamodb.execute_statement(Statement=statement, Parameters=[{"M": {"d": deep,
                                                                           "bad": {"N": "x"}}}])
    with expect_error(VE, exact("Validation failed in TransactStatements[0]: " + MALFORMED +
                                "Unexpected term")):
        dynamodb.execute_transaction(
            TransactStatements=[{"Statement": f"SELECT * FROM \"{rtbl}\" WHERE"}])


def test_cli_execute_statement(aws, rtbl):
    # `aws dynamodb execute-statement` runs INSERT and SELECT with
    # --parameters, and a failing statement exits 254 naming the error.
    pk = key()
    rc, out = aws("execute-statement", "--statement",
                  f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': 1, 'note': 'from the CLI'}}",
                  "--parameters", json.dumps([{"S": pk}]))
    assert rc == 0, out
    rc, out = aws("execute-statement", "--statement",
                  f"SELECT note FROM \"{rtbl}\" WHERE pk = ?", "--parameters",
                  json.dumps([{"S": pk}]))
    assert rc == 0, out
    assert out["Items"] == [{"note": {"S": "from the CLI"}}]
    rc, err = aws("execute-statement", "--statement",
                  f"INSERT INTO \"{rtbl}\" VALUE {{'pk': '{pk}', 'sk': 1}}")
    assert rc == 254, err
    assert "DuplicateItemException" in err
