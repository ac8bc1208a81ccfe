"""The tables file: which tables each worker's database starts with.

Two forms, chosen by the file's extension:

* `.json`: a list of CreateTable inputs, or an object with a "tables" list
  (the shape of @shelf/jest-dynamodb's jest-dynamodb-config.js, so a project
  can keep one config for both runners).  Numbers with a fraction are read
  as Decimal, which is what boto3's resource layer writes.
* `.py`: a module defining `tables` (or `TABLES`): a list, or a function
  returning one.

Each entry is a CreateTable input; an optional "data" list of items (plain
values, as the boto3 resource layer and jest-dynamodb's DocumentClient take
them) is written after the table is created.
"""

import importlib.util
import json
import time
from decimal import Decimal
from pathlib import Path

ACTIVE_DEADLINE_S = 30.0
# Keys an entry may carry that are not CreateTable members.
_EXTRA_KEYS = ("data",)


class TablesFileError(ValueError):
    pass


def load_tables(path):
    """The list of table entries in `path` (a Path)."""
    path = Path(path)
    if not path.is_file():
        raise TablesFileError("localdynamo tables file not found: {}".format(path))
    if path.suffix == ".py":
        entries = _load_python(path)
    else:
        with open(path, encoding="utf-8") as f:
            try:
                entries = json.load(f, parse_float=Decimal)
            except ValueError as e:
                raise TablesFileError("{}: not valid JSON: {}".format(path, e)) from None
    if isinstance(entries, dict):
        entries = entries.get("tables")
    if not isinstance(entries, list) or not all(
            isinstance(e, dict) and isinstance(e.get("TableName"), str) for e in entries):
        raise TablesFileError(
            "{}: expected a list of CreateTable inputs (each with a TableName), "
            "or an object with such a list under \"tables\"".format(path))
    return entries


def _load_python(path):
    spec = importlib.util.spec_from_file_location("localdynamo_tables_" + path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    entries = getattr(module, "tables", getattr(module, "TABLES", None))
    if entries is None:
        raise TablesFileError("{}: defines neither `tables` nor `TABLES`".format(path))
    return entries() if callable(entries) else entries


def create_tables(client, resource, entries):
    """Create every table (all requests first, then wait for each to be
    ACTIVE), then write each table's "data"."""
    for entry in entries:
        client.create_table(**{k: v for k, v in entry.items() if k not in _EXTRA_KEYS})
    for entry in entries:
        wait_active(client, entry["TableName"])
    for entry in entries:
        items = entry.get("data") or []
        if items:
            with resource.Table(entry["TableName"]).batch_writer() as batch:
                for item in items:
                    batch.put_item(Item=item)


def wait_active(client, table_name):
    # localdynamo's tables are ACTIVE at once unless the server runs with
    # -delayTransientStatuses; boto3's waiter would sleep 20 s between polls.
    deadline = time.monotonic() + ACTIVE_DEADLINE_S
    while True:
        table = client.describe_table(TableName=table_name)["Table"]
        indexes = table.get("GlobalSecondaryIndexes", [])
        if table["TableStatus"] == "ACTIVE" and all(i["IndexStatus"] == "ACTIVE" for i in indexes):
            return
        if time.monotonic() > deadline:
            raise TimeoutError("table {} not ACTIVE after {:.0f} s".format(
                table_name, ACTIVE_DEADLINE_S))
        time.sleep(0.02)
