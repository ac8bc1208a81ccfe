// The run's access profile, per table: the server's answer to GET
// /_localdynamo/profile (docs/profile.md) keeps each database apart, and a
// run has one database per worker, so the same table appears once per
// worker. The report and the rules read it summed over the run's databases.
// pytest-localdynamo's profile_summary.py does the same in Python: keep the
// two alike.

const num = (value) => (typeof value === "number" && Number.isFinite(value) ? value : 0);

function addCounts(into, counts) {
  for (const [name, count] of Object.entries(counts ?? {})) into[name] = (into[name] ?? 0) + num(count);
}

function waste(read, returned) {
  return read > 0 ? 1 - returned / read : 0;
}

function newFigures() {
  return { requests: {}, readUnits: 0, writeUnits: 0, itemsRead: 0, itemsReturned: 0,
           scans: { count: 0, itemsRead: 0, maxTableFraction: 0 } };
}

// Adds one table's or index's entry of the answer to `figures`.
function addFigures(figures, entry) {
  addCounts(figures.requests, entry.Requests);
  figures.readUnits += num(entry.ReadUnits);
  figures.writeUnits += num(entry.WriteUnits);
  figures.itemsRead += num(entry.ItemsRead);
  figures.itemsReturned += num(entry.ItemsReturned);
  const scans = entry.Scans ?? {};
  figures.scans.count += num(scans.Count);
  figures.scans.itemsRead += num(scans.ItemsRead);
  figures.scans.maxTableFraction = Math.max(figures.scans.maxTableFraction,
                                            num(scans.MaxTableFraction));
}

function finish(figures) {
  figures.requestCount = Object.values(figures.requests).reduce((a, b) => a + b, 0);
  figures.filterWaste = waste(figures.itemsRead, figures.itemsReturned);
  return figures;
}

function shapeKey(shape) {
  return JSON.stringify([shape.Operation, shape.IndexName ?? "", shape.KeyCondition ?? "",
                         shape.Filter ?? "", shape.Projection ?? ""]);
}

function addTable(tables, entry) {
  let table = tables.get(entry.TableName);
  if (!table) {
    table = { name: entry.TableName, databases: 0, ...newFigures(), cost: 0, capacityUnits: 0,
              indexes: new Map(), shapes: new Map(), hotKeys: new Map() };
    tables.set(entry.TableName, table);
  }
  table.databases += 1;
  addFigures(table, entry);
  table.cost += num(entry.Cost);
  table.capacityUnits += num(entry.CapacityUnits);
  for (const index of entry.Indexes ?? []) {
    let into = table.indexes.get(index.IndexName);
    if (!into) {
      into = { name: index.IndexName, kind: index.Kind ?? "", ...newFigures(), neverRead: true };
      table.indexes.set(index.IndexName, into);
    }
    addFigures(into, index);
    into.neverRead = into.neverRead && index.NeverRead === true;
  }
  for (const shape of entry.Shapes ?? []) {
    const key = shapeKey(shape);
    const into = table.shapes.get(key) ?? {
      operation: shape.Operation, index: shape.IndexName ?? "", keyCondition: shape.KeyCondition ?? "",
      filter: shape.Filter ?? "", projection: shape.Projection ?? "",
      count: 0, readUnits: 0, writeUnits: 0, itemsRead: 0, itemsReturned: 0, cost: 0 };
    into.count += num(shape.Count);
    into.readUnits += num(shape.ReadUnits);
    into.writeUnits += num(shape.WriteUnits);
    into.itemsRead += num(shape.ItemsRead);
    into.itemsReturned += num(shape.ItemsReturned);
    into.cost += num(shape.Cost);
    table.shapes.set(key, into);
  }
  for (const hot of entry.HotPartitionKeys ?? []) {
    const key = JSON.stringify([hot.IndexName ?? "", hot.Key]);
    const into = table.hotKeys.get(key) ?? { index: hot.IndexName ?? "", key: hot.Key, count: 0 };
    into.count += num(hot.Count);
    table.hotKeys.set(key, into);
  }
}

// `answer`: the server's JSON. `includes(namespace)`: whether a database is
// this run's (all of them on a server the run started). `shapes`, `hotKeys`:
// how many of each a table keeps, the most expensive (requested) first.
export function summarize(answer, { includes = () => true, shapes = 10, hotKeys = 10 } = {}) {
  const databases = (answer.Databases ?? []).filter((db) => includes(db.Namespace ?? ""));
  const tables = new Map();
  for (const db of databases) for (const entry of db.Tables ?? []) addTable(tables, entry);
  const list = [...tables.values()].sort((a, b) => a.name.localeCompare(b.name)).map((table) => {
    const indexes = [...table.indexes.values()].map(finish);
    const all = finish(newFigures());
    for (const part of [table, ...indexes]) {
      addCounts(all.requests, part.requests);
      all.itemsRead += part.itemsRead;
      all.itemsReturned += part.itemsReturned;
      all.scans.count += part.scans.count;
      all.scans.itemsRead += part.scans.itemsRead;
    }
    return {
      ...finish(table),
      indexes,
      // The table and its indexes together: what the rules on a table read.
      withIndexes: finish(all),
      neverRead: indexes.filter((index) => index.neverRead).map((index) => index.name),
      shapes: [...table.shapes.values()]
        .sort((a, b) => (b.readUnits + b.writeUnits) - (a.readUnits + a.writeUnits) || b.count - a.count)
        .slice(0, shapes),
      hotKeys: [...table.hotKeys.values()].sort((a, b) => b.count - a.count).slice(0, hotKeys),
    };
  });
  const everything = databases.length === (answer.Databases ?? []).length;
  const sum = (field) => list.reduce((total, table) => total + table[field], 0);
  return {
    since: answer.Since ?? "",
    prices: answer.Prices ?? {},
    databases: databases.map((db) => db.Namespace ?? ""),
    // The server's totals when every database is the run's; else this run's tables'.
    totals: everything
      ? { requests: num(answer.Requests), readUnits: num(answer.ReadUnits),
          writeUnits: num(answer.WriteUnits), cost: num(answer.Cost) }
      : { requests: sum("requestCount"), readUnits: sum("readUnits"),
          writeUnits: sum("writeUnits"), cost: sum("cost") },
    tables: list,
  };
}

// The answer with only this run's databases (and their totals): what the
// JSON file holds when other runs share the server.
export function runOnly(answer, includes) {
  const databases = (answer.Databases ?? []).filter((db) => includes(db.Namespace ?? ""));
  if (databases.length === (answer.Databases ?? []).length) return answer;
  const { totals } = summarize(answer, { includes });
  return { ...answer, Requests: totals.requests, ReadUnits: totals.readUnits,
           WriteUnits: totals.writeUnits, Cost: totals.cost, Databases: databases };
}
