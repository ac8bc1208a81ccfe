"""localdynamo-profile.html: one self-contained page (inline CSS, inline SVG
bars, nothing fetched) from the run's summary (profile_summary.py) and the
rules' outcome (profile_rules.py).  localdynamo-test's src/profile/html.js
draws the same page: keep the two alike."""

from html import escape

from .profile_rules import figure

STYLE = """body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1d2430;max-width:1100px}
h1{font-size:20px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #d5dae2}
h3{font-size:14px;margin:14px 0 4px}table{border-collapse:collapse;margin:4px 0}
td,th{padding:2px 10px 2px 0;text-align:left;vertical-align:middle}th{color:#5a6475;font-weight:600}
td.n{text-align:right;font-variant-numeric:tabular-nums}code{font-size:12px}
.totals span{display:inline-block;margin-right:24px}.totals b{font-size:18px;display:block}
.broken{color:#b3261e}.kept{color:#1e7a3c}.meta{color:#5a6475}"""


def _e(text):
    return escape(str(text), quote=True)


def _bar(value, most, color="#3b7dd8"):
    """A bar `value` of `most` long, 120 px at most."""
    width = max(1, round(120 * value / most)) if most > 0 else 0
    return ('<svg width="120" height="10" role="img"><rect width="120" height="10" fill="#eef1f5"/>'
            '<rect width="{}" height="10" fill="{}"/></svg>'.format(width, color))


def _key_text(key):
    """{"pk": {"S": "c#1"}} as pk=c#1."""
    return ", ".join("{}={}".format(name, next(iter((value or {}).values()), ""))
                     for name, value in (key or {}).items())


def _rows(head, body):
    return "<table><tr>{}</tr>{}</table>".format(
        "".join("<th>{}</th>".format(h) for h in head), "".join(body))


def _cell(value):
    return '<td class="n">{}</td>'.format(figure(value))


def _table_section(table, currency):
    together = table["withIndexes"]
    requests = sorted(together["requests"].items(), key=lambda item: -item[1])
    most = requests[0][1] if requests else 0
    shape_most = max([s["readUnits"] + s["writeUnits"] for s in table["shapes"]] or [0])
    key_most = max([k["count"] for k in table["hotKeys"]] or [0])
    parts = [
        '<h2 id="t-{0}">{0}</h2>'.format(_e(table["name"])),
        "<p>{} requests · {} read units · {} write units ({} with its indexes) · cost {} {} · "
        "filter waste {} ({} items read, {} returned) · {} Scans read {} items</p>".format(
            figure(together["requestCount"]), figure(table["readUnits"]),
            figure(table["writeUnits"]), figure(table["capacityUnits"]), figure(table["cost"]),
            _e(currency), figure(together["filterWaste"]), figure(together["itemsRead"]),
            figure(together["itemsReturned"]), figure(together["scans"]["count"]),
            figure(together["scans"]["itemsRead"])),
        _rows(["operation", "requests", ""], [
            "<tr><td>{}</td>{}<td>{}</td></tr>".format(_e(op), _cell(n), _bar(n, most))
            for op, n in requests]),
    ]
    if table["indexes"]:
        parts += ["<h3>Indexes</h3>", _rows(
            ["index", "kind", "requests", "read units", "write units", "filter waste", "Scans", ""],
            ["<tr><td>{}</td><td>{}</td>{}{}{}{}{}<td>{}</td></tr>".format(
                _e(i["name"]), _e(i["kind"]), _cell(i["requestCount"]), _cell(i["readUnits"]),
                _cell(i["writeUnits"]), _cell(i["filterWaste"]), _cell(i["scans"]["count"]),
                '<span class="broken">never read</span>' if i["neverRead"] else "")
             for i in table["indexes"]])]
    parts.append("<h3>Indexes never read</h3><p>{}</p>".format(
        ", ".join("<code>{}</code>".format(_e(n)) for n in table["neverRead"]) or "none"))
    parts.append("<h3>Top shapes</h3>")
    parts.append(_rows(
        ["operation", "index", "key condition", "filter", "projection", "count", "units",
         "items read", "returned", "cost", ""],
        ["<tr><td>{}</td><td>{}</td><td><code>{}</code></td><td><code>{}</code></td>"
         "<td><code>{}</code></td>{}{}{}{}{}<td>{}</td></tr>".format(
             _e(s["operation"]), _e(s["index"]), _e(s["keyCondition"]), _e(s["filter"]),
             _e(s["projection"]), _cell(s["count"]), _cell(s["readUnits"] + s["writeUnits"]),
             _cell(s["itemsRead"]), _cell(s["itemsReturned"]), _cell(s["cost"]),
             _bar(s["readUnits"] + s["writeUnits"], shape_most))
         for s in table["shapes"]]) if table["shapes"] else "<p>none</p>")
    parts.append("<h3>Hot partition keys</h3>")
    parts.append(_rows(
        ["index", "key", "requests", ""],
        ["<tr><td>{}</td><td><code>{}</code></td>{}<td>{}</td></tr>".format(
            _e(k["index"]), _e(_key_text(k["key"])), _cell(k["count"]),
            _bar(k["count"], key_most, "#d8833b"))
         for k in table["hotKeys"]]) if table["hotKeys"] else "<p>none</p>")
    return "\n".join(parts)


def render_html(summary, outcome=()):
    """`outcome`: check_rules()'s answer."""
    totals, prices = summary["totals"], summary["prices"]
    currency = prices.get("Currency", "USD")
    unit_most = max([t["capacityUnits"] for t in summary["tables"]] or [0])
    rules = ""
    if outcome:
        items = []
        for rule, broken in outcome:
            items += ['<li class="broken">{}</li>'.format(_e(m)) for m in broken] or [
                '<li class="kept">rule {} kept</li>'.format(_e(rule.label))]
        rules = "<h2>Rules</h2><ul>{}</ul>".format("".join(items))
    overview = _rows(
        ["table", "requests", "capacity units", "", "cost", "filter waste", "Scans",
         "indexes never read"],
        ['<tr><td><a href="#t-{0}">{0}</a></td>{1}{2}<td>{3}</td>{4}{5}{6}<td>{7}</td></tr>'.format(
            _e(t["name"]), _cell(t["withIndexes"]["requestCount"]), _cell(t["capacityUnits"]),
            _bar(t["capacityUnits"], unit_most), _cell(t["cost"]),
            _cell(t["withIndexes"]["filterWaste"]), _cell(t["withIndexes"]["scans"]["count"]),
            _e(", ".join(t["neverRead"])))
         for t in summary["tables"]]) if summary["tables"] else "<p>no table had a request</p>"
    return """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>localdynamo access profile</title>
<style>{style}</style></head><body>
<h1>localdynamo access profile</h1>
<p class="meta">since {since} · {databases} databases · prices of
{region} (read {read})</p>
<p class="totals"><span><b>{requests}</b>requests</span>
<span><b>{read_units}</b>read units</span>
<span><b>{write_units}</b>write units</span>
<span><b>{cost}</b>{currency}</span></p>
{rules}
<h2>Tables</h2>
{overview}
{sections}
</body></html>
""".format(style=STYLE, since=_e(summary["since"]), databases=len(summary["databases"]),
           region=_e(prices.get("Region", "")), read=_e(prices.get("Read", "")),
           requests=figure(totals["requests"]), read_units=figure(totals["readUnits"]),
           write_units=figure(totals["writeUnits"]), cost=figure(totals["cost"]),
           currency=_e(currency), rules=rules, overview=overview,
           sections="\n".join(_table_section(t, currency) for t in summary["tables"]))
