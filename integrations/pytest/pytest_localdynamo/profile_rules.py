"""The rules a run's access profile must keep, else the run fails.

The same declarative form as localdynamo-test's (src/profile/rules.js):

    {"noScan": "Orders"}                      no Scan of Orders or its indexes
    {"noScan": True}                          no Scan of any table
    {"maxFilterWaste": 0.5, "table": "Orders"}  at most half the items Orders (and
                                              its indexes) read are filtered out;
                                              without "table": each table's
    {"maxCost": 0.01}                         the run's estimated cost at most 0.01
                                              (the prices' currency); with
                                              "table": that table's

or the same as text: "noScan:Orders", "no-scan", "maxFilterWaste:0.5:Orders",
"max-cost:0.01".
"""

import json
import math
import re
from decimal import Decimal

_KINDS = {"noscan": "noScan", "maxfilterwaste": "maxFilterWaste", "maxcost": "maxCost"}
_TABLE_NAME = re.compile(r"[A-Za-z0-9_.-]{1,255}")


class RuleError(ValueError):
    """A rule that is not one."""


class Rule:
    def __init__(self, kind, table, limit):
        self.kind, self.table, self.limit = kind, table, limit
        parts = [kind] + ([] if limit is None else [figure(limit)]) + ([table] if table else [])
        self.label = " ".join(parts)

    def __repr__(self):
        return "Rule({})".format(self.label)


def _invalid(rule, why):
    return RuleError(
        "localdynamo profile rule {}: {}; rules are {{\"noScan\": \"Table\"}}, "
        "{{\"maxFilterWaste\": 0.5, \"table\"?}}, {{\"maxCost\": 0.01, \"table\"?}} or "
        "\"noScan:Table\", \"maxFilterWaste:0.5[:Table]\", \"maxCost:0.01[:Table]\"".format(
            json.dumps(rule, default=str), why))


def _from_text(text):
    name, *rest = [part.strip() for part in text.split(":")]
    kind = _KINDS.get(name.replace("-", "").lower())
    if kind is None:
        raise _invalid(text, "unknown rule {}".format(name))
    if kind == "noScan":
        if len(rest) > 1:
            raise _invalid(text, "noScan takes one table")
        return {"noScan": rest[0] if rest and rest[0] else True}
    if not 1 <= len(rest) <= 2 or not rest[0]:
        raise _invalid(text, "{} needs a number".format(kind))
    try:
        rule = {kind: float(rest[0])}
    except ValueError:
        raise _invalid(text, "{} must be a number at least 0".format(kind)) from None
    if len(rest) == 2 and rest[1]:
        rule["table"] = rest[1]
    return rule


def parse_rule(given):
    """One rule (a dict or its text form), checked: a Rule.  Raises RuleError."""
    rule = _from_text(given) if isinstance(given, str) else given
    if not isinstance(rule, dict):
        raise _invalid(given, "not a rule")
    kinds = [key for key in rule if key in _KINDS.values()]
    others = [key for key in rule if key != "table" and key not in kinds]
    if len(kinds) != 1 or others:
        raise _invalid(given, "give exactly one of noScan, maxFilterWaste, maxCost (and table)")
    kind = kinds[0]
    table = rule.get("table")
    limit = None
    if kind == "noScan":
        if rule["noScan"] is not True:
            if "table" in rule:
                raise _invalid(given, "noScan names its table itself")
            table = rule["noScan"]
    else:
        limit = rule[kind]
        if isinstance(limit, bool) or not isinstance(limit, (int, float)) \
                or not math.isfinite(limit) or limit < 0:
            raise _invalid(given, "{} must be a number at least 0".format(kind))
    if table is not None and not (isinstance(table, str) and _TABLE_NAME.fullmatch(table)):
        raise _invalid(given, "the table must be a table name")
    return Rule(kind, table, limit)


def parse_rules(rules):
    return [parse_rule(rule) for rule in rules or []]


def figure(value):
    """A figure as the messages write it: at most 4 significant digits, never
    in exponent form (0.00005318, not 5.318e-05); as rules.js writes it."""
    if float(value).is_integer():
        return str(int(value))
    text = format(Decimal("{:.4g}".format(value)), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _plural(n, word):
    return "{} {}{}".format(figure(n), word, "" if n == 1 else "s")


def _breaches(rule, summary):
    tables = [t for t in summary["tables"] if not rule.table or t["name"] == rule.table]
    currency = summary["prices"].get("Currency", "USD")

    def named(table):
        return "" if rule.table else table["name"] + ": "

    if rule.kind == "noScan":
        return ["{}{} read {}".format(named(t), _plural(t["withIndexes"]["scans"]["count"], "Scan"),
                                      _plural(t["withIndexes"]["scans"]["itemsRead"], "item"))
                for t in tables if t["withIndexes"]["scans"]["count"] > 0]
    if rule.kind == "maxFilterWaste":
        return ["{}filter waste {} ({} read, {} returned)".format(
                    named(t), figure(t["withIndexes"]["filterWaste"]),
                    _plural(t["withIndexes"]["itemsRead"], "item"),
                    figure(t["withIndexes"]["itemsReturned"]))
                for t in tables if t["withIndexes"]["filterWaste"] > rule.limit]
    if rule.table:
        return ["cost {} {}".format(figure(t["cost"]), currency)
                for t in tables if t["cost"] > rule.limit]
    cost = summary["totals"]["cost"]
    return ["the run cost {} {}".format(figure(cost), currency)] if cost > rule.limit else []


def check_rules(rules, summary):
    """[(rule, [message, ...])] for every rule, no messages when it is kept; a
    message reads "localdynamo profile: rule noScan Orders broken: 3 Scans
    read 300 items"."""
    return [(rule, ["localdynamo profile: rule {} broken: {}".format(rule.label, what)
                    for what in _breaches(rule, summary)])
            for rule in rules]
