"""The run's access profile, per table.

The server's answer to GET /_localdynamo/profile (docs/profile.md) keeps each
database apart, and a run has one database per worker, so the same table
appears once per worker.  The report and the rules read it summed over the
run's databases.  localdynamo-test's src/profile/summary.js does the same in
JavaScript: keep the two alike.
"""

import json
import math


def _num(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0
    return value if math.isfinite(value) else 0


def _waste(read, returned):
    return 1 - returned / read if read > 0 else 0


def _new_figures():
    return {"requests": {}, "readUnits": 0, "writeUnits": 0, "itemsRead": 0, "itemsReturned": 0,
            "scans": {"count": 0, "itemsRead": 0, "maxTableFraction": 0}}


def _add_counts(into, counts):
    for name, count in (counts or {}).items():
        into[name] = into.get(name, 0) + _num(count)


def _add_figures(figures, entry):
    _add_counts(figures["requests"], entry.get("Requests"))
    for field, key in (("readUnits", "ReadUnits"), ("writeUnits", "WriteUnits"),
                       ("itemsRead", "ItemsRead"), ("itemsReturned", "ItemsReturned")):
        figures[field] += _num(entry.get(key))
    scans = entry.get("Scans") or {}
    figures["scans"]["count"] += _num(scans.get("Count"))
    figures["scans"]["itemsRead"] += _num(scans.get("ItemsRead"))
    figures["scans"]["maxTableFraction"] = max(figures["scans"]["maxTableFraction"],
                                               _num(scans.get("MaxTableFraction")))


def _finish(figures):
    figures["requestCount"] = sum(figures["requests"].values())
    figures["filterWaste"] = _waste(figures["itemsRead"], figures["itemsReturned"])
    return figures


def _add_table(tables, entry):
    name = entry.get("TableName", "")
    table = tables.get(name)
    if table is None:
        table = dict(_new_figures(), name=name, databases=0, cost=0, capacityUnits=0,
                     indexes={}, shapes={}, hotKeys={})
        tables[name] = table
    table["databases"] += 1
    _add_figures(table, entry)
    table["cost"] += _num(entry.get("Cost"))
    table["capacityUnits"] += _num(entry.get("CapacityUnits"))
    for index in entry.get("Indexes") or []:
        into = table["indexes"].get(index.get("IndexName"))
        if into is None:
            into = dict(_new_figures(), name=index.get("IndexName", ""), kind=index.get("Kind", ""),
                        neverRead=True)
            table["indexes"][into["name"]] = into
        _add_figures(into, index)
        into["neverRead"] = into["neverRead"] and index.get("NeverRead") is True
    for shape in entry.get("Shapes") or []:
        fields = {"operation": shape.get("Operation", ""), "index": shape.get("IndexName") or "",
                  "keyCondition": shape.get("KeyCondition") or "",
                  "filter": shape.get("Filter") or "", "projection": shape.get("Projection") or ""}
        key = tuple(fields.values())
        into = table["shapes"].setdefault(key, dict(fields, count=0, readUnits=0, writeUnits=0,
                                                    itemsRead=0, itemsReturned=0, cost=0))
        for field, source in (("count", "Count"), ("readUnits", "ReadUnits"),
                              ("writeUnits", "WriteUnits"), ("itemsRead", "ItemsRead"),
                              ("itemsReturned", "ItemsReturned"), ("cost", "Cost")):
            into[field] += _num(shape.get(source))
    for hot in entry.get("HotPartitionKeys") or []:
        key = (hot.get("IndexName") or "", json.dumps(hot.get("Key"), sort_keys=True))
        into = table["hotKeys"].setdefault(
            key, {"index": hot.get("IndexName") or "", "key": hot.get("Key") or {}, "count": 0})
        into["count"] += _num(hot.get("Count"))


def _everything(answer, includes):
    databases = answer.get("Databases") or []
    return [db for db in databases if includes(db.get("Namespace") or "")], len(databases)


def summarize(answer, includes=lambda namespace: True, shapes=10, hot_keys=10):
    """`answer`: the server's JSON.  `includes(namespace)`: whether a database
    is this run's (all of them on a server the run started).  `shapes`,
    `hot_keys`: how many of each a table keeps, the most expensive (most
    requested) first."""
    databases, total = _everything(answer, includes)
    tables = {}
    for db in databases:
        for entry in db.get("Tables") or []:
            _add_table(tables, entry)
    result = []
    for name in sorted(tables):
        table = _finish(tables[name])
        indexes = [_finish(index) for index in table["indexes"].values()]
        together = _new_figures()
        for part in [table] + indexes:
            _add_counts(together["requests"], part["requests"])
            together["itemsRead"] += part["itemsRead"]
            together["itemsReturned"] += part["itemsReturned"]
            together["scans"]["count"] += part["scans"]["count"]
            together["scans"]["itemsRead"] += part["scans"]["itemsRead"]
        table.update(
            indexes=indexes,
            # The table and its indexes together: what the rules on a table read.
            withIndexes=_finish(together),
            neverRead=[index["name"] for index in indexes if index["neverRead"]],
            shapes=sorted(table["shapes"].values(),
                          key=lambda s: (-(s["readUnits"] + s["writeUnits"]), -s["count"]))[:shapes],
            hotKeys=sorted(table["hotKeys"].values(), key=lambda k: -k["count"])[:hot_keys])
        result.append(table)
    if len(databases) == total:
        # The server's totals when every database is the run's.
        totals = {"requests": _num(answer.get("Requests")), "readUnits": _num(answer.get("ReadUnits")),
                  "writeUnits": _num(answer.get("WriteUnits")), "cost": _num(answer.get("Cost"))}
    else:
        totals = {"requests": sum(t["requestCount"] for t in result),
                  "readUnits": sum(t["readUnits"] for t in result),
                  "writeUnits": sum(t["writeUnits"] for t in result),
                  "cost": sum(t["cost"] for t in result)}
    return {"since": answer.get("Since", ""), "prices": answer.get("Prices") or {},
            "databases": [db.get("Namespace") or "" for db in databases],
            "totals": totals, "tables": result}


def run_only(answer, includes):
    """The answer with only this run's databases (and their totals): what the
    JSON file holds when other runs share the server."""
    databases, total = _everything(answer, includes)
    if len(databases) == total:
        return answer
    totals = summarize(answer, includes)["totals"]
    return dict(answer, Requests=totals["requests"], ReadUnits=totals["readUnits"],
                WriteUnits=totals["writeUnits"], Cost=totals["cost"], Databases=databases)
