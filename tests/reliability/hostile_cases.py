"""The hostile-input catalogue: requests no SDK would send, each with the
answer DynamoDB gives (an error type, a status) or a clean close.

A case is (name, bytes to send, expectation). Expectations:
  ("error", status, type)  the first response has this status and __type
  ("status", status)       the first response has this status (non-JSON answers)
  ("close",)               the server closes the connection, at most after a
                           plain 400, without answering anything else
"""

import json

from .reliability_util import request_bytes

TABLE = "hostile"

VALIDATION = ("error", 400, "ValidationException")
SERIALIZATION = ("error", 400, "SerializationException")
CLOSE = ("close",)


def put(item, **extra):
    return request_bytes("PutItem", json.dumps(dict(TableName=TABLE, Item=item, **extra)))


def op(target, body):
    """Raw body bytes (or a dict) for operation `target`."""
    if isinstance(body, dict):
        body = json.dumps(body)
    return request_bytes(target, body)


def nested_map(depth):
    value = {"S": "leaf"}
    for _ in range(depth):
        value = {"M": {"m": value}}
    return value


def nested_list_put(depth):
    """A PutItem whose attribute is a list `depth` levels deep (as text:
    Python's encoder would recurse too deep)."""
    value = '{"L": [' * depth + '{"S": "leaf"}' + "]}" * depth
    return op("PutItem", '{"TableName": "%s", "Item": {"pk": {"S": "k"}, "l": %s}}' % (TABLE, value))


def raw_http(text):
    return text.encode("latin-1")


AUTH = ("Authorization: AWS4-HMAC-SHA256 Credential=AKIDTEST/20260101/us-east-1/dynamodb/"
        "aws4_request, SignedHeaders=host, Signature=00")


def headers_then(extra_lines, body=b"{}", target="ListTables"):
    lines = ["POST / HTTP/1.1", "Host: 127.0.0.1", "X-Amz-Target: DynamoDB_20120810." + target,
             "Content-Type: application/x-amz-json-1.0", AUTH] + extra_lines
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def admin(path, body):
    data = body.encode("latin-1")
    return ("POST /_localdynamo/{} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
            "\r\nContent-Length: {}\r\n\r\n".format(path, len(data))).encode("latin-1") + data


def cond(expression, values=None):
    """A PutItem with this ConditionExpression."""
    body = {"TableName": TABLE, "Item": {"pk": {"S": "k"}}, "ConditionExpression": expression}
    if values:
        body["ExpressionAttributeValues"] = values
    return op("PutItem", body)


def catalogue():
    key = {"pk": {"S": "k"}}
    cases = [
        # --- malformed and truncated JSON
        ("json: empty body", op("PutItem", ""), SERIALIZATION),
        ("json: only whitespace", op("PutItem", "   \n "), SERIALIZATION),
        ("json: lone brace", op("PutItem", "{"), SERIALIZATION),
        ("json: truncated after a member", op("PutItem", '{"TableName": "hostile"'), SERIALIZATION),
        ("json: truncated inside the item",
         op("PutItem", '{"TableName": "hostile", "Item": {"pk": {"S": "a"}'), SERIALIZATION),
        ("json: truncated inside a string", op("PutItem", '{"TableName": "hos'), SERIALIZATION),
        ("json: not JSON at all", op("PutItem", "TableName=hostile"), SERIALIZATION),
        ("json: top-level array", op("PutItem", "[]"), SERIALIZATION),
        ("json: top-level string", op("PutItem", '"hostile"'), SERIALIZATION),
        ("json: top-level null", op("PutItem", "null"), SERIALIZATION),
        ("json: trailing comma", op("PutItem", '{"TableName": "hostile",}'), SERIALIZATION),
        ("json: single quotes", op("PutItem", "{'TableName': 'hostile'}"), SERIALIZATION),
        ("json: garbage after the document", op("ListTables", '{} {}'), SERIALIZATION),
        ("json: NUL byte", op("ListTables", b'{\x00}'), SERIALIZATION),
        ("json: bad escape", op("PutItem", '{"TableName": "ho\\xstile"}'), SERIALIZATION),
        ("json: unquoted key", op("ListTables", '{Limit: 1}'), SERIALIZATION),
        # --- invalid UTF-8 and odd Unicode
        ("utf8: 0xFF in a table name", op("DescribeTable", b'{"TableName": "ho\xffstile"}'),
         SERIALIZATION),
        ("utf8: overlong slash", op("PutItem", b'{"TableName": "hostile", "Item": {"pk": '
                                                b'{"S": "\xc0\xaf"}}}'), SERIALIZATION),
        ("utf8: truncated sequence at the end of a value",
         op("PutItem", b'{"TableName": "hostile", "Item": {"pk": {"S": "\xe2\x82"}}}'),
         SERIALIZATION),
        ("utf8: invalid byte in an attribute name",
         op("PutItem", b'{"TableName": "hostile", "Item": {"pk": {"S": "a"}, "\xfe": '
                       b'{"S": "b"}}}'), SERIALIZATION),
        ("utf8: UTF-16 surrogate encoded in UTF-8",
         op("PutItem", b'{"TableName": "hostile", "Item": {"pk": {"S": "\xed\xa0\x80"}}}'),
         SERIALIZATION),
        # --- wrong types at every level
        ("type: TableName a number", op("DescribeTable", {"TableName": 5}), SERIALIZATION),
        ("type: TableName an object", op("DescribeTable", {"TableName": {"a": 1}}),
         SERIALIZATION),
        ("type: Item a list", op("PutItem", {"TableName": TABLE, "Item": [key]}), SERIALIZATION),
        ("type: Item a string", op("PutItem", {"TableName": TABLE, "Item": "pk"}), SERIALIZATION),
        ("type: attribute value a string", put({"pk": "k"}), SERIALIZATION),
        ("type: unknown type descriptor", put({"pk": {"Q": "k"}}), VALIDATION),
        ("type: S a number", put({"pk": {"S": 1}}), SERIALIZATION),
        ("type: N a JSON number", put({"pk": {"S": "k"}, "n": {"N": 1}}), SERIALIZATION),
        ("type: N not numeric", put({"pk": {"S": "k"}, "n": {"N": "abc"}}), VALIDATION),
        ("type: SS a string", put({"pk": {"S": "k"}, "s": {"SS": "a"}}), SERIALIZATION),
        ("type: L an object", put({"pk": {"S": "k"}, "l": {"L": {"a": {"S": "b"}}}}),
         SERIALIZATION),
        ("type: M a list", put({"pk": {"S": "k"}, "m": {"M": [{"S": "b"}]}}), SERIALIZATION),
        ("type: BOOL a string", put({"pk": {"S": "k"}, "b": {"BOOL": "true"}}), SERIALIZATION),
        ("type: B not base64", put({"pk": {"S": "k"}, "b": {"B": "!!!"}}), SERIALIZATION),
        ("type: two type descriptors", put({"pk": {"S": "k", "N": "1"}}), VALIDATION),
        ("type: empty attribute value", put({"pk": {"S": "k"}, "e": {}}), VALIDATION),
        ("type: Key a list", op("GetItem", {"TableName": TABLE, "Key": [key]}), SERIALIZATION),
        ("type: ConditionExpression a number",
         op("PutItem", {"TableName": TABLE, "Item": key, "ConditionExpression": 7}),
         SERIALIZATION),
        ("type: ExpressionAttributeValues a list",
         op("PutItem", {"TableName": TABLE, "Item": key, "ConditionExpression": "a = :a",
                        "ExpressionAttributeValues": [{"S": "a"}]}), SERIALIZATION),
        ("type: Limit a string", op("Scan", {"TableName": TABLE, "Limit": "5"}), SERIALIZATION),
        ("type: TransactItems an object",
         op("TransactWriteItems", {"TransactItems": {"Put": {"TableName": TABLE, "Item": key}}}),
         SERIALIZATION),
        ("type: RequestItems entries not objects",
         op("BatchWriteItem", {"RequestItems": {TABLE: ["PutRequest"]}}), SERIALIZATION),
        ("type: ReturnValues a boolean",
         op("PutItem", {"TableName": TABLE, "Item": key, "ReturnValues": True}), SERIALIZATION),
        # --- deep nesting
        ("nesting: 1,000,000 nested JSON arrays", op("ListTables", "[" * 1000000 + "]" * 1000000),
         SERIALIZATION),
        ("nesting: 100,000 nested JSON objects unterminated",
         op("ListTables", '{"a":' * 100000), SERIALIZATION),
        ("nesting: map 33 levels deep", put({"pk": {"S": "k"}, "m": nested_map(33)}), VALIDATION),
        # Deeper than any request nests: refused before parsing, without a message.
        ("nesting: list 5,000 levels deep", nested_list_put(5000),
         SERIALIZATION),
        ("nesting: list 100 levels deep", nested_list_put(100),
         VALIDATION),
        # --- huge numbers
        ("number: 1E+126", put({"pk": {"S": "k"}, "n": {"N": "1E+126"}}), VALIDATION),
        ("number: 1E-131", put({"pk": {"S": "k"}, "n": {"N": "1E-131"}}), VALIDATION),
        ("number: 39 significant digits", put({"pk": {"S": "k"}, "n": {"N": "1" * 39}}),
         VALIDATION),
        ("number: 100,000 digits", put({"pk": {"S": "k"}, "n": {"N": "9" * 100000}}), VALIDATION),
        ("number: exponent of 30 digits",
         put({"pk": {"S": "k"}, "n": {"N": "1E" + "9" * 30}}), VALIDATION),
        ("number: Limit 1e400", op("Scan", '{"TableName": "hostile", "Limit": 1e400}'),
         SERIALIZATION),
        ("number: Limit of 30 digits",
         op("Scan", '{"TableName": "hostile", "Limit": 999999999999999999999999999999}'),
         SERIALIZATION),
        # --- oversized items, requests, headers, expressions
        ("size: item of 500 KB", put({"pk": {"S": "k"}, "big": {"S": "x" * 500000}}), VALIDATION),
        ("size: table name of 100,000 characters", op("DescribeTable", {"TableName": "t" * 100000}),
         VALIDATION),
        ("size: ConditionExpression of 5,000 bytes",
         op("PutItem", {"TableName": TABLE, "Item": key,
                        "ConditionExpression": "attribute_exists(a)" + " OR attribute_exists(a)"
                        * 220}), VALIDATION),
        ("size: 10,000 unused expression values",
         op("PutItem", {"TableName": TABLE, "Item": key, "ConditionExpression": "a = :v0",
                        "ExpressionAttributeValues": {":v%d" % i: {"S": "x"}
                                                      for i in range(10000)}}), VALIDATION),
        ("size: body of 17 MB declared and sent",
         op("PutItem", b'{"TableName": "hostile", "Item": {"pk": {"S": "' + b"x" * (17 << 20)
            + b'"}}}'), ("error", 413, "RequestEntityTooLargeException")),
        ("size: header block over 16 KB", headers_then(["X-Big: " + "a" * 20000]),
         ("status", 400)),
        ("size: 10,000 headers", headers_then(["X-H%d: v" % i for i in range(10000)]),
         ("status", 400)),
        ("size: URL over 16 KB", raw_http("GET /" + "a" * 20000 + " HTTP/1.1\r\nHost: x\r\n\r\n"),
         ("status", 400)),
        # --- expressions built to exhaust a recursive parser
        ("expression: 2,000 nested parentheses",
         cond("(" * 2000 + "attribute_exists(a)" + ")" * 2000), VALIDATION),
        ("expression: 1,000 NOTs", cond("NOT " * 1000 + "attribute_exists(a)"), VALIDATION),
        ("expression: document path 1,500 levels deep",
         cond("attribute_exists(" + ".".join(["a"] * 1500) + ")"), VALIDATION),
        ("expression: list index of 23 digits",
         cond("attribute_exists(a[99999999999999999999999])"), VALIDATION),
        ("expression: size() nested 600 times",
         cond("size(" * 600 + "a" + ")" * 600 + " > :v", {":v": {"N": "1"}}), VALIDATION),
        ("expression: if_not_exists nested 300 times",
         op("UpdateItem", {"TableName": TABLE, "Key": key,
                           "UpdateExpression": "SET a = " + "if_not_exists(a, " * 300 + ":v"
                           + ")" * 300, "ExpressionAttributeValues": {":v": {"N": "1"}}}),
         VALIDATION),
        ("expression: 1,000 additions", op("UpdateItem", {
            "TableName": TABLE, "Key": key, "UpdateExpression": "SET a = " + " + ".join(
                [":v"] * 1000), "ExpressionAttributeValues": {":v": {"N": "1"}}}), VALIDATION),
        ("scan: Segment -1 of 1,000,001",
         op("Scan", {"TableName": TABLE, "Segment": -1, "TotalSegments": 1000001}), VALIDATION),
        # --- HTTP framing
        ("http: garbage request line", raw_http("HELLO\r\n\r\n"), CLOSE),
        ("http: HTTP/0.9 request", raw_http("GET /\r\n\r\n"), CLOSE),
        ("http: Content-Length not a number", headers_then(["Content-Length: abc"]), CLOSE),
        ("http: negative Content-Length", headers_then(["Content-Length: -5"]), CLOSE),
        ("http: two different Content-Lengths",
         headers_then(["Content-Length: 2", "Content-Length: 3"]), CLOSE),
        ("http: bad chunk size",
         headers_then(["Transfer-Encoding: chunked"], body=b"zz\r\n{}\r\n0\r\n\r\n"), CLOSE),
        ("http: header line without a colon", headers_then(["NoColonHere"]), CLOSE),
        ("http: NUL in a header value", headers_then(["X-A: a\x00b", "Content-Length: 2"]), CLOSE),
        ("http: chunked body is read",
         headers_then(["Transfer-Encoding: chunked"], body=b"2\r\n{}\r\n0\r\n\r\n"),
         ("status", 200)),
        ("http: missing X-Amz-Target",
         raw_http("POST / HTTP/1.1\r\nHost: x\r\n" + AUTH + "\r\nContent-Length: 2\r\n\r\n{}"),
         ("error", 400, "UnknownOperationException")),
        ("http: unknown operation", op("DropAllTables", "{}"),
         ("error", 400, "UnknownOperationException")),
        ("http: no Authorization",
         raw_http("POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\n"
                  "Content-Length: 2\r\n\r\n{}"),
         ("error", 400, "MissingAuthenticationTokenException")),
        # --- the admin API shares the port
        ("admin: 1,000,000 nested arrays to the clock",
         admin("clock", "[" * 1000000 + "]" * 1000000), ("status", 400)),
        ("admin: 1,000,000 nested objects to the triggers",
         admin("triggers", '{"a":' * 1000000 + "1" + "}" * 1000000), ("status", 400)),
        ("admin: a trigger filter pattern nested 1,000,000 deep",
         admin("triggers", json.dumps({
             "Name": "deep", "TableName": TABLE, "Url": "http://127.0.0.1:9/",
             "FilterCriteria": {"Filters": [{"Pattern": '{"a":' * 1000000 + "1" + "}" * 1000000}]}
         })), ("status", 400)),
        ("admin: truncated JSON to the clock", admin("clock", '{"AdvanceSeconds": '),
         ("status", 400)),
        ("admin: a clock advance of 1e400 seconds", admin("clock", '{"AdvanceSeconds": 1e400}'),
         ("status", 400)),
        ("http: HTTP/1.0 without Host", raw_http(
            "GET / HTTP/1.0\r\n\r\n"), ("status", 200)),
        ("http: Expect 100-continue", headers_then(["Expect: 100-continue", "Content-Length: 2"]),
         ("status", 200)),
        ("http: unknown method", raw_http("BREW / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"),
         ("status", 404)),
    ]
    return cases
