"""BatchExecuteStatement (all reads or all writes, a response or an error
per statement) and ExecuteTransaction (all or nothing with a cancellation
reason per statement, EXISTS as a condition check, ClientRequestToken
idempotency, and its rules)."""

from .e2e_util import av, exact, expect_error, key
from .partiql_util import MALFORMED, NO_KEY, VE, execute
from .partiql_util import rtbl  # fixtures


def test_batch_reads_and_writes(dynamodb, rtbl):
    # BatchExecuteStatement runs up to 25 statements, all reads or all
    # writes; each answers in Responses, in order, with its Item or its own
    # Error (the others still run).
    pk = key()
    writes = dynamodb.batch_execute_statement(Statements=[
        {"Statement": f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': 1, 'v': 'one'}}",
         "Parameters": [av(pk)]},
        {"Statement": f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': 2}}", "Parameters": [av(pk)]},
        {"Statement": f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': 1}}", "Parameters": [av(pk)]},
        {"Statement": f"UPDATE \"{rtbl}\" SET v = 'x' WHERE pk = ?", "Parameters": [av(pk)]},
        {"Statement": f"UPDATE \"{rtbl}\" SET w = 1 WHERE pk = ? AND sk = 2 RETURNING ALL NEW *",
         "Parameters": [av(pk)]},
    ])["Responses"]
    assert "Error" not in writes[0] and "Error" not in writes[1]
    assert writes[0]["TableName"] == rtbl
    assert writes[2]["Error"]["Code"] == "DuplicateItem"
    assert writes[3]["Error"] == {"Code": "ValidationError", "Message": NO_KEY}
    assert writes[4]["Item"] == {"pk": {"S": pk}, "sk": {"N": "2"}, "w": {"N": "1"}}

    reads = dynamodb.batch_execute_statement(Statements=[
        {"Statement": f"SELECT * FROM \"{rtbl}\" WHERE pk = ? AND sk = 1", "Parameters": [av(pk)]},
        {"Statement": f"SELECT * FROM \"{rtbl}\" WHERE pk = ? AND sk = 9", "Parameters": [av(pk)]},
        {"Statement": f"SELECT * FROM \"{rtbl}\" WHERE pk = ?", "Parameters": [av(pk)]},
        {"Statement": "SELECT * FROM"},
        {"Statement": f"SELECT * FROM \"{rtbl}\".\"idx\" WHERE pk = ? AND sk = 1",
         "Parameters": [av(pk)]},
    ], ReturnConsumedCapacity="TOTAL")
    responses = reads["Responses"]
    assert responses[0]["Item"]["v"] == {"S": "one"}
    assert "Item" not in responses[1] and "Error" not in responses[1]
    assert responses[2]["Error"]["Code"] == "ValidationError"
    assert responses[3]["Error"]["Code"] == "ValidationError"
    assert responses[3]["Error"]["Message"].startswith(MALFORMED)
    assert responses[4]["Error"]["Message"] == (
        "Select statements within BatchExecuteStatement must specify the primary key in the "
        "where clause.")
    assert reads["ConsumedCapacity"][0]["TableName"] == rtbl

    with expect_error(VE, exact("BatchExecuteStatement API does not support both read and write "
                                "operations in the same request.")):
        dynamodb.batch_execute_statement(Statements=[
            {"Statement": f"SELECT * FROM \"{rtbl}\" WHERE pk = 'a' AND sk = 1"},
            {"Statement": f"DELETE FROM \"{rtbl}\" WHERE pk = 'a' AND sk = 1"}])
    with expect_error(VE, "Member must have length less than or equal to 25"):
        dynamodb.batch_execute_statement(Statements=[
            {"Statement": f"SELECT * FROM \"{rtbl}\" WHERE pk = 'a' AND sk = {i}"}
            for i in range(26)])


def test_transaction_is_all_or_nothing(dynamodb, rtbl):
    # ExecuteTransaction applies every write or none: one failing statement
    # cancels all with a reason per statement (DuplicateItem for an INSERT
    # over an existing item, ConditionalCheckFailed for a false condition).
    pk = key()
    execute(dynamodb, f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': 1, 'n': 1}}", pk)
    execute(dynamodb, f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': 3}}", pk)
    with expect_error("TransactionCanceledException") as error:
        dynamodb.execute_transaction(TransactStatements=[
            {"Statement": f"UPDATE \"{rtbl}\" SET n = n + 1 WHERE pk = ? AND sk = 1",
             "Parameters": [av(pk)]},
            {"Statement": f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': 3}}",
             "Parameters": [av(pk)]},
        ])
    assert "[None, DuplicateItem]" in error.value.response["Error"]["Message"]
    reasons = error.value.response["CancellationReasons"]
    assert [r["Code"] for r in reasons] == ["None", "DuplicateItem"]
    with expect_error("TransactionCanceledException") as error:
        dynamodb.execute_transaction(TransactStatements=[
            {"Statement": f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': 2}}",
             "Parameters": [av(pk)]},
            {"Statement": f"DELETE FROM \"{rtbl}\" WHERE pk = ? AND sk = 1 AND n = 5",
             "Parameters": [av(pk)]},
        ])
    assert [r["Code"] for r in error.value.response["CancellationReasons"]] == \
        ["None", "ConditionalCheckFailed"]
    items = execute(dynamodb, f"SELECT * FROM \"{rtbl}\" WHERE pk = ?", pk)["Items"]
    assert items == [{"pk": {"S": pk}, "sk": {"N": "1"}, "n": {"N": "1"}},
                     {"pk": {"S": pk}, "sk": {"N": "3"}}]

    written = dynamodb.execute_transaction(TransactStatements=[
        {"Statement": f"UPDATE \"{rtbl}\" SET n = n + 1 WHERE pk = ? AND sk = 1",
         "Parameters": [av(pk)]},
        {"Statement": f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': 2}}", "Parameters": [av(pk)]},
    ], ReturnConsumedCapacity="TOTAL")
    assert written["Responses"] == []
    assert written["ConsumedCapacity"][0]["TableName"] == rtbl
    read = dynamodb.execute_transaction(TransactStatements=[
        {"Statement": f"SELECT n FROM \"{rtbl}\" WHERE pk = ? AND sk = 1", "Parameters": [av(pk)]},
        {"Statement": f"SELECT * FROM \"{rtbl}\" WHERE pk = ? AND sk = 2", "Parameters": [av(pk)]},
        {"Statement": f"SELECT * FROM \"{rtbl}\" WHERE pk = ? AND sk = 4", "Parameters": [av(pk)]},
    ])["Responses"]
    assert read == [{"Item": {"n": {"N": "2"}}}, {"Item": {"pk": {"S": pk}, "sk": {"N": "2"}}}, {}]


def test_transaction_exists_is_a_condition_check(dynamodb, rtbl):
    # EXISTS(SELECT ...) in a write transaction checks that the keyed item
    # exists and meets the rest of the WHERE, as a ConditionCheck would; it
    # is refused outside transactions.
    pk = key()
    execute(dynamodb, f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': 1, 'open': true}}", pk)
    check = {"Statement": f"EXISTS(SELECT * FROM \"{rtbl}\" WHERE pk = ? AND sk = 1 AND "
                          "\"open\" = true)", "Parameters": [av(pk)]}
    insert = {"Statement": f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': 2}}",
              "Parameters": [av(pk)]}
    dynamodb.execute_transaction(TransactStatements=[check, insert])
    assert "Item" in dynamodb.get_item(TableName=rtbl, Key={"pk": av(pk), "sk": av(2)})
    execute(dynamodb, f"UPDATE \"{rtbl}\" SET \"open\" = false WHERE pk = ? AND sk = 1", pk)
    insert["Statement"] = insert["Statement"].replace("'sk': 2", "'sk': 3")
    with expect_error("TransactionCanceledException") as error:
        dynamodb.execute_transaction(TransactStatements=[check, insert])
    assert [r["Code"] for r in error.value.response["CancellationReasons"]] == \
        ["ConditionalCheckFailed", "None"]
    assert "Item" not in dynamodb.get_item(TableName=rtbl, Key={"pk": av(pk), "sk": av(3)})
    with expect_error(VE, exact("EXISTS can only be used in ExecuteTransaction write requests.")):
        dynamodb.execute_statement(Statement=check["Statement"], Parameters=check["Parameters"])


def test_transaction_client_request_token_is_idempotent(dynamodb, rtbl):
    # A repeated ExecuteTransaction with the same ClientRequestToken does not
    # write again; the same token with other statements is refused.
    pk = key()
    execute(dynamodb, f"INSERT INTO \"{rtbl}\" VALUE {{'pk': ?, 'sk': 1, 'n': 0}}", pk)
    statements = [{"Statement": f"UPDATE \"{rtbl}\" SET n = n + 1 WHERE pk = ? AND sk = 1",
                   "Parameters": [av(pk)]}]
    token = "tok-" + pk[-20:]
    for _ in range(2):
        dynamodb.execute_transaction(TransactStatements=statements, ClientRequestToken=token)
    got = dynamodb.get_item(TableName=rtbl, Key={"pk": av(pk), "sk": av(1)})["Item"]
    assert got["n"] == {"N": "1"}
    with expect_error("IdempotentParameterMismatchException"):
        dynamodb.execute_transaction(
            TransactStatements=[{"Statement": statements[0]["Statement"].replace("+ 1", "+ 2"),
                                 "Parameters": [av(pk)]}],
            ClientRequestToken=token)


def test_transaction_rules(dynamodb, rtbl):
    # Transactions are all reads or all writes; reads name whole keys on a
    # table, never an index.
    with expect_error(VE, exact("ExecuteTransaction API does not support both read and write "
                                "operations in the same request.")):
        dynamodb.execute_transaction(TransactStatements=[
            {"Statement": f"SELECT * FROM \"{rtbl}\" WHERE pk = 'a' AND sk = 1"},
            {"Statement": f"DELETE FROM \"{rtbl}\" WHERE pk = 'a' AND sk = 1"}])
    with expect_error(VE, exact("Validation failed in TransactStatements[0]: Select statements "
                                "within ExecuteTransaction must specify the primary key in the "
                                "where clause.")):
        dynamodb.execute_transaction(TransactStatements=[
            {"Statement": f"SELECT * FROM \"{rtbl}\" WHERE pk = 'a'"}])
    with expect_error(VE, exact("Validation failed in TransactStatements[1]: RETURNING clause is "
                                "not supported in ExecuteTransaction.")):
        dynamodb.execute_transaction(TransactStatements=[
            {"Statement": f"INSERT INTO \"{rtbl}\" VALUE {{'pk': 'r', 'sk': 1}}"},
            {"Statement": f"DELETE FROM \"{rtbl}\" WHERE pk = 'a' AND sk = 1 RETURNING ALL OLD *"}])
    with expect_error(VE, exact("Validation failed in TransactStatements[0]: EXISTS() must "
                                "contain a single item read with additional condition")):
        dynamodb.execute_transaction(TransactStatements=[
            {"Statement": f"EXISTS(SELECT * FROM \"{rtbl}\" WHERE pk = 'a' AND sk = 1)"},
            {"Statement": f"DELETE FROM \"{rtbl}\" WHERE pk = 'b' AND sk = 1"}])
    with expect_error(VE, "Transaction request cannot include multiple operations on one item"):
        dynamodb.execute_transaction(TransactStatements=[
            {"Statement": f"DELETE FROM \"{rtbl}\" WHERE pk = 'a' AND sk = 1"},
            {"Statement": f"UPDATE \"{rtbl}\" SET x = 1 WHERE pk = 'a' AND sk = 1"}])
