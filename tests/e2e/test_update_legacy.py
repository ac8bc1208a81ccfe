"""The legacy AttributeUpdates parameter of UpdateItem: PUT, ADD and DELETE
on numbers, sets and lists, creating a missing item, UPDATED_OLD, Expected,
and its validation errors."""

import pytest

from .e2e_util import av, exact, expect_error, key, plain
from .update_item_util import CCF, VE
from .update_item_util import items, tbl  # fixtures


def legacy(items, k, updates, **kwargs):
    resp = items.db.update_item(TableName=items.table, Key={"pk": {"S": k}},
                                AttributeUpdates=updates, **kwargs)
    return plain(resp["Attributes"]) if "Attributes" in resp else None


def act(action, value=None):
    u = {"Action": action}
    if value is not None:
        u["Value"] = av(value)
    return u


def test_legacy_put_add_delete(items):
    # AttributeUpdates PUT/ADD/DELETE: PUT replaces, ADD increments numbers and unions sets, DELETE without a value removes the attribute.
    k = items.put(a=1, n=5, ss={"x"}, gone="bye")
    got = legacy(items, k, {"a": act("PUT", "A"), "n": act("ADD", -2), "ss": act("ADD", {"y"}),
                            "new": act("ADD", 3), "gone": act("DELETE")}, ReturnValues="ALL_NEW")
    assert got == {"pk": k, "a": "A", "n": 3, "ss": {"x", "y"}, "new": 3}


def test_legacy_delete_set_elements(items):
    # AttributeUpdates DELETE with a set value removes those elements; emptying the set removes the attribute.
    k = items.put(ss={"a", "b"}, ns={1, 2})
    legacy(items, k, {"ss": act("DELETE", {"a"}), "ns": act("DELETE", {1, 2})})
    assert items.get(k) == {"pk": k, "ss": {"b"}}


def test_legacy_add_to_list_appends(items):
    # AttributeUpdates ADD with a list appends to the existing list (or creates it).
    k = items.put(l=[1])
    legacy(items, k, {"l": act("ADD", [2, 3]), "l2": act("ADD", ["x"])})
    assert items.get(k) == {"pk": k, "l": [1, 2, 3], "l2": ["x"]}


def test_legacy_creates_item_and_returns_updated(items):
    # AttributeUpdates on a missing item creates it; UPDATED_OLD returns the previous values of updated attributes.
    k = key()
    assert legacy(items, k, {"n": act("ADD", 1)}, ReturnValues="UPDATED_NEW") == {"n": 1}
    assert legacy(items, k, {"n": act("ADD", 1), "s": act("PUT", "x")},
                  ReturnValues="UPDATED_OLD") == {"n": 1}
    assert items.get(k) == {"pk": k, "n": 2, "s": "x"}


def test_legacy_with_expected(items):
    # AttributeUpdates combined with Expected applies only when the expectation holds.
    k = items.put(v=1)
    with expect_error(CCF):
        legacy(items, k, {"v": act("PUT", 3)}, Expected={"v": {"Value": av(2)}})
    legacy(items, k, {"v": act("PUT", 3)}, Expected={"v": {"Value": av(1)}})
    assert items.get(k)["v"] == 3


def test_legacy_type_mismatch(items):
    # ADD of a number set to a string set is "Type mismatch for attribute to update".
    k = items.put(ss={"a"})
    with expect_error(VE, exact("Type mismatch for attribute to update")):
        legacy(items, k, {"ss": act("ADD", {1})})


@pytest.mark.parametrize("update,message", [
    (act("PUT"), "Only DELETE action is allowed when no attribute value is specified"),
    (act("ADD"), "Only DELETE action is allowed when no attribute value is specified"),
    (act("ADD", "x"), "ADD action is not supported for the type S"),
    (act("ADD", {"m": 1}), "ADD action is not supported for the type M"),
    (act("DELETE", 1), "DELETE action with value is not supported for the type N"),
    (act("DELETE", "x"), "DELETE action with value is not supported for the type S"),
], ids=["put-no-value", "add-no-value", "add-S", "add-M", "delete-N", "delete-S"])
def test_legacy_action_validation(items, update, message):
    # Invalid AttributeUpdates actions are rejected with DynamoDB's texts.
    with expect_error(VE, exact("One or more parameter values were invalid: " + message)):
        legacy(items, key(), {"a": update})


def test_legacy_cannot_update_key(dynamodb, tbl):
    # AttributeUpdates on the key attribute is rejected.
    with expect_error(VE, exact("One or more parameter values were invalid: Cannot update attribute pk. "
                                "This attribute is part of the key")):
        dynamodb.update_item(TableName=tbl, Key={"pk": {"S": key()}},
                             AttributeUpdates={"pk": {"Action": "PUT", "Value": {"S": "x"}}})


def test_empty_attribute_updates_creates_the_key_only_item(items):
    # An empty AttributeUpdates is no update at all: as an UpdateItem
    # without updates, it creates the item with its key alone.
    k = key()
    got = legacy(items, k, {}, ReturnValues="ALL_NEW")
    assert got == {"pk": k}
    assert items.get(k) == {"pk": k}
    # On an existing item it changes nothing.
    k2 = items.put(a=1)
    assert legacy(items, k2, {}, ReturnValues="ALL_NEW") == {"pk": k2, "a": 1}
    assert legacy(items, k2, {}, ReturnValues="UPDATED_NEW") is None
