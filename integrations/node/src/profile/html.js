// localdynamo-profile.html: one self-contained page (inline CSS, inline SVG
// bars, nothing fetched) from the run's summary (summary.js) and the rules'
// outcome (rules.js). pytest-localdynamo's profile_html.py draws the same
// page: keep the two alike.
import { figure } from "./rules.js";

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1d2430;max-width:1100px}
h1{font-size:20px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #d5dae2}
h3{font-size:14px;margin:14px 0 4px}table{border-collapse:collapse;margin:4px 0}
td,th{padding:2px 10px 2px 0;text-align:left;vertical-align:middle}th{color:#5a6475;font-weight:600}
td.n{text-align:right;font-variant-numeric:tabular-nums}code{font-size:12px}
.totals span{display:inline-block;margin-right:24px}.totals b{font-size:18px;display:block}
.broken{color:#b3261e}.kept{color:#1e7a3c}.meta{color:#5a6475}`;

const escape = (text) => String(text).replace(/[&<>"']/g, (c) =>
  ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

// A bar `value` of `max` long, 120 px at most.
function bar(value, max, color = "#3b7dd8") {
  const width = max > 0 ? Math.max(1, Math.round((120 * value) / max)) : 0;
  return `<svg width="120" height="10" role="img"><rect width="120" height="10" fill="#eef1f5"/>` +
         `<rect width="${width}" height="10" fill="${color}"/></svg>`;
}

// {"pk": {"S": "c#1"}} as pk=c#1.
function keyText(key) {
  return Object.entries(key ?? {}).map(([name, value]) =>
    `${name}=${Object.values(value ?? {})[0] ?? ""}`).join(", ");
}

function rows(head, body) {
  return `<table><tr>${head.map((h) => `<th>${h}</th>`).join("")}</tr>${body.join("")}</table>`;
}

const cell = (value) => `<td class="n">${figure(value)}</td>`;

function tableSection(table, currency) {
  const requests = Object.entries(table.withIndexes.requests).sort((a, b) => b[1] - a[1]);
  const most = requests.length ? requests[0][1] : 0;
  const shapeMax = Math.max(0, ...table.shapes.map((s) => s.readUnits + s.writeUnits));
  const keyMax = Math.max(0, ...table.hotKeys.map((k) => k.count));
  const parts = [
    `<h2 id="t-${escape(table.name)}">${escape(table.name)}</h2>`,
    `<p>${figure(table.withIndexes.requestCount)} requests · ${figure(table.readUnits)} read units · ` +
      `${figure(table.writeUnits)} write units (${figure(table.capacityUnits)} with its indexes) · ` +
      `cost ${figure(table.cost)} ${escape(currency)} · ` +
      `filter waste ${figure(table.withIndexes.filterWaste)} (${figure(table.withIndexes.itemsRead)} items read, ` +
      `${figure(table.withIndexes.itemsReturned)} returned) · ` +
      `${figure(table.withIndexes.scans.count)} Scans read ${figure(table.withIndexes.scans.itemsRead)} items</p>`,
    rows(["operation", "requests", ""], requests.map(([op, n]) =>
      `<tr><td>${escape(op)}</td>${cell(n)}<td>${bar(n, most)}</td></tr>`)),
  ];
  if (table.indexes.length) {
    parts.push("<h3>Indexes</h3>", rows(
      ["index", "kind", "requests", "read units", "write units", "filter waste", "Scans", ""],
      table.indexes.map((index) => `<tr><td>${escape(index.name)}</td><td>${escape(index.kind)}</td>` +
        `${cell(index.requestCount)}${cell(index.readUnits)}${cell(index.writeUnits)}` +
        `${cell(index.filterWaste)}${cell(index.scans.count)}` +
        `<td>${index.neverRead ? '<span class="broken">never read</span>' : ""}</td></tr>`)));
  }
  parts.push(`<h3>Indexes never read</h3><p>${table.neverRead.length
    ? table.neverRead.map((name) => `<code>${escape(name)}</code>`).join(", ") : "none"}</p>`);
  parts.push("<h3>Top shapes</h3>", table.shapes.length ? rows(
    ["operation", "index", "key condition", "filter", "projection", "count", "units", "items read",
     "returned", "cost", ""],
    table.shapes.map((s) => `<tr><td>${escape(s.operation)}</td><td>${escape(s.index)}</td>` +
      `<td><code>${escape(s.keyCondition)}</code></td><td><code>${escape(s.filter)}</code></td>` +
      `<td><code>${escape(s.projection)}</code></td>${cell(s.count)}` +
      `${cell(s.readUnits + s.writeUnits)}${cell(s.itemsRead)}${cell(s.itemsReturned)}${cell(s.cost)}` +
      `<td>${bar(s.readUnits + s.writeUnits, shapeMax)}</td></tr>`)) : "<p>none</p>");
  parts.push("<h3>Hot partition keys</h3>", table.hotKeys.length ? rows(
    ["index", "key", "requests", ""],
    table.hotKeys.map((k) => `<tr><td>${escape(k.index)}</td><td><code>${escape(keyText(k.key))}</code></td>` +
      `${cell(k.count)}<td>${bar(k.count, keyMax, "#d8833b")}</td></tr>`)) : "<p>none</p>");
  return parts.join("\n");
}

// `outcome`: checkRules()'s answer.
export function renderHtml(summary, outcome = []) {
  const { totals, prices } = summary;
  const currency = prices.Currency ?? "USD";
  const unitMax = Math.max(0, ...summary.tables.map((t) => t.capacityUnits));
  const rules = outcome.length ? `<h2>Rules</h2><ul>${outcome.map(({ rule, broken }) => broken.length
    ? broken.map((message) => `<li class="broken">${escape(message)}</li>`).join("")
    : `<li class="kept">rule ${escape(rule.label)} kept</li>`).join("")}</ul>` : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>localdynamo access profile</title>
<style>${STYLE}</style></head><body>
<h1>localdynamo access profile</h1>
<p class="meta">since ${escape(summary.since)} · ${summary.databases.length} databases · prices of
${escape(prices.Region ?? "")} (read ${escape(prices.Read ?? "")})</p>
<p class="totals"><span><b>${figure(totals.requests)}</b>requests</span>
<span><b>${figure(totals.readUnits)}</b>read units</span>
<span><b>${figure(totals.writeUnits)}</b>write units</span>
<span><b>${figure(totals.cost)}</b>${escape(currency)}</span></p>
${rules}
<h2>Tables</h2>
${summary.tables.length ? rows(["table", "requests", "capacity units", "", "cost", "filter waste", "Scans",
                                "indexes never read"],
  summary.tables.map((t) => `<tr><td><a href="#t-${escape(t.name)}">${escape(t.name)}</a></td>` +
    `${cell(t.withIndexes.requestCount)}${cell(t.capacityUnits)}<td>${bar(t.capacityUnits, unitMax)}</td>` +
    `${cell(t.cost)}${cell(t.withIndexes.filterWaste)}${cell(t.withIndexes.scans.count)}` +
    `<td>${escape(t.neverRead.join(", "))}</td></tr>`)) : "<p>no table had a request</p>"}
${summary.tables.map((t) => tableSection(t, currency)).join("\n")}
</body></html>
`;
}
