// The rules a run's access profile must keep, else the run fails. The same
// declarative form as pytest-localdynamo's (profile_rules.py):
//
//   { noScan: "Orders" }                     no Scan of Orders or its indexes
//   { noScan: true }                         no Scan of any table
//   { maxFilterWaste: 0.5, table: "Orders" } at most half the items Orders (and
//                                            its indexes) read are filtered out;
//                                            without `table`: each table's
//   { maxCost: 0.01 }                        the run's estimated cost at most
//                                            0.01 (the prices' currency);
//                                            with `table`: that table's
//
// or the same as text: "noScan:Orders", "no-scan", "maxFilterWaste:0.5:Orders",
// "max-cost:0.01".

const KINDS = { noscan: "noScan", maxfilterwaste: "maxFilterWaste", maxcost: "maxCost" };
const TABLE_NAME = /^[A-Za-z0-9_.-]{1,255}$/;

function invalid(rule, why) {
  return new Error(`localdynamo-test: profile rule ${JSON.stringify(rule)}: ${why}; ` +
                   'rules are {noScan: "Table"}, {maxFilterWaste: 0.5, table?}, {maxCost: 0.01, table?} ' +
                   'or "noScan:Table", "maxFilterWaste:0.5[:Table]", "maxCost:0.01[:Table]"');
}

function fromText(text) {
  const [name, ...rest] = text.split(":").map((part) => part.trim());
  const kind = KINDS[name.replace(/-/g, "").toLowerCase()];
  if (!kind) throw invalid(text, `unknown rule ${name}`);
  if (kind === "noScan") {
    if (rest.length > 1) throw invalid(text, "noScan takes one table");
    return { noScan: rest[0] || true };
  }
  if (rest.length < 1 || rest.length > 2 || rest[0] === "") throw invalid(text, `${kind} needs a number`);
  const rule = { [kind]: Number(rest[0]) };
  if (rest[1]) rule.table = rest[1];
  return rule;
}

// One rule, checked: { kind, table, limit, label }. Throws on a malformed one.
export function parseRule(given) {
  const rule = typeof given === "string" ? fromText(given) : given;
  if (!rule || typeof rule !== "object" || Array.isArray(rule)) throw invalid(given, "not a rule");
  const kinds = Object.keys(rule).filter((key) => Object.values(KINDS).includes(key));
  const others = Object.keys(rule).filter((key) => key !== "table" && !kinds.includes(key));
  if (kinds.length !== 1 || others.length > 0) {
    throw invalid(given, "give exactly one of noScan, maxFilterWaste, maxCost (and table)");
  }
  const kind = kinds[0];
  let table = rule.table;
  let limit = null;
  if (kind === "noScan") {
    if (rule.noScan !== true) {
      if (table !== undefined) throw invalid(given, "noScan names its table itself");
      table = rule.noScan;
    }
  } else {
    limit = rule[kind];
    if (typeof limit !== "number" || !Number.isFinite(limit) || limit < 0) {
      throw invalid(given, `${kind} must be a number at least 0`);
    }
  }
  if (table !== undefined && (typeof table !== "string" || !TABLE_NAME.test(table))) {
    throw invalid(given, "the table must be a table name");
  }
  const label = [kind, ...(limit === null ? [] : [figure(limit)]), ...(table ? [table] : [])].join(" ");
  return { kind, table, limit, label };
}

export function parseRules(rules = []) {
  if (!Array.isArray(rules)) throw invalid(rules, "profileRules must be an array");
  return rules.map(parseRule);
}

// A figure as the messages write it: at most 4 significant digits, never in
// exponent form (0.00005318, not 5.318e-5).
export function figure(value) {
  if (Number.isInteger(value)) return String(value);
  const rounded = Number(value.toPrecision(4));
  const digits = Math.min(20, 3 - Math.floor(Math.log10(Math.abs(rounded))));
  if (digits <= 0) return String(rounded);
  return rounded.toFixed(digits).replace(/0+$/, "").replace(/\.$/, "");
}

const plural = (n, word) => `${figure(n)} ${word}${n === 1 ? "" : "s"}`;

// What broke, for each table the rule covers (none: kept).
function breaches(rule, summary) {
  const tables = summary.tables.filter((table) => !rule.table || table.name === rule.table);
  const named = (table) => (rule.table ? "" : `${table.name}: `);
  const currency = summary.prices.Currency ?? "USD";
  switch (rule.kind) {
    case "noScan":
      return tables.filter((table) => table.withIndexes.scans.count > 0).map((table) =>
        `${named(table)}${plural(table.withIndexes.scans.count, "Scan")} read ` +
        `${plural(table.withIndexes.scans.itemsRead, "item")}`);
    case "maxFilterWaste":
      return tables.filter((table) => table.withIndexes.filterWaste > rule.limit).map((table) =>
        `${named(table)}filter waste ${figure(table.withIndexes.filterWaste)} ` +
        `(${plural(table.withIndexes.itemsRead, "item")} read, ${figure(table.withIndexes.itemsReturned)} returned)`);
    case "maxCost": {
      if (rule.table) {
        return tables.filter((table) => table.cost > rule.limit)
          .map((table) => `cost ${figure(table.cost)} ${currency}`);
      }
      const { cost } = summary.totals;
      return cost > rule.limit ? [`the run cost ${figure(cost)} ${currency}`] : [];
    }
    default:
      return [];
  }
}

// [{ rule, broken: [message, ...] }] for every rule; a message reads
// "localdynamo profile: rule noScan Orders broken: 3 Scans read 300 items".
export function checkRules(rules, summary) {
  return rules.map((rule) => ({
    rule,
    broken: breaches(rule, summary).map((what) => `localdynamo profile: rule ${rule.label} broken: ${what}`),
  }));
}
