// The access profile of the header's database (GET /_localdynamo/profile,
// docs/profile.md): what the requests so far would cost on demand and how
// they read the data. Three charts — units per second per table, the items
// filters threw away per table and index, the most expensive request
// shapes — then a small table per table: requests by operation, units,
// cost, Scans, hot partition keys and the indexes nothing reads. Prices
// are those of the region picked here; Reset starts the profile afresh.

import {admin, currentNamespace} from './api.js';
import {barChart, shortNumber, timelineChart} from './charts.js';
import {field, formatBytes, formatTime, h, plainJson, select} from './util.js';

// The regions offered for prices. The server has prices for some only; it
// refuses another with a ValidationException naming those it has, and the
// list then narrows to them (the server's table is the one source).
let regions = ['us-east-1', 'us-east-2', 'us-west-1', 'us-west-2', 'ca-central-1', 'sa-east-1',
               'eu-west-1', 'eu-west-2', 'eu-west-3', 'eu-central-1', 'eu-north-1',
               'ap-northeast-1', 'ap-northeast-2', 'ap-southeast-1', 'ap-southeast-2', 'ap-south-1'];
const kSeriesColours = 8;
const kShapesShown = 10;
let priceRegion = 'us-east-1';  // kept while the console is open

const percent = (fraction) => `${Math.round(fraction * 100)}%`;
const plural = (count, word) => `${count} ${word}${count === 1 ? '' : 's'}`;
const unitsOf = (x) => (x.ReadUnits ?? 0) + (x.WriteUnits ?? 0);

// Dollars with three significant digits however small: $0.0000265.
export function formatCost(cost) {
  if (!cost) return '$0';
  const decimals = Math.max(2, 2 - Math.floor(Math.log10(cost)));
  return `$${cost.toFixed(Math.min(decimals, 12))}`;
}

function requestsText(requests = {}) {
  const entries = Object.entries(requests).sort((a, b) => b[1] - a[1]);
  return entries.length ? entries.map(([operation, count]) => `${operation} ${count}`).join(' · ') : '—';
}

// "8 of 10 items read thrown away", or '' when the filter kept all.
function wasteText(read, returned) {
  const thrown = read - returned;
  return thrown > 0 ? `${thrown} of ${read} items read thrown away` : '';
}

function legend(entries) {
  return h('ul', {class: 'legend'}, entries.map(([kind, name]) =>
    h('li', {}, h('span', {class: `swatch ${kind}`, 'aria-hidden': 'true'}), name)));
}

function summary(data) {
  const card = (label, value, hint) => h('div', {class: 'card'},
    h('dt', {}, label), h('dd', {}, value), hint ? h('dd', {class: 'hint'}, hint) : null);
  const prices = data.Prices ?? {};
  return [
    h('dl', {class: 'cards'},
      card('Requests', shortNumber(data.Requests ?? 0)),
      card('Read units', shortNumber(data.ReadUnits ?? 0)),
      card('Write units', shortNumber(data.WriteUnits ?? 0)),
      card('Estimated cost', data.Cost === undefined ? '—' : formatCost(data.Cost),
           data.Cost === undefined ? `no on-demand prices for ${priceRegion}`
                                   : `on demand, ${prices.Region}`)),
    h('p', {class: 'hint'},
      data.Since ? `Counted since ${formatTime(Date.parse(data.Since))}. ` : '',
      prices.ReadRequestUnitsPerMillion !== undefined
        ? `On-demand prices of ${prices.Region} (read ${prices.Read}): ` +
          `${prices.Currency ?? 'USD'} ${prices.ReadRequestUnitsPerMillion} per million read ` +
          'request units, ' +
          `${prices.WriteRequestUnitsPerMillion} per million write request units.` : ''),
  ];
}

function timelineSection(tables) {
  const series = tables.map((t, i) => ({name: t.TableName, colour: i % kSeriesColours,
                                        points: t.Timeline ?? []}))
                       .filter((t) => t.points.length);
  const perSecond = new Map();
  for (const p of series.flatMap((t) => t.points)) {
    const sum = perSecond.get(p.Second) ?? {read: 0, write: 0};
    sum.read += p.ReadUnits;
    sum.write += p.WriteUnits;
    perSecond.set(p.Second, sum);
  }
  const seconds = [...perSecond.keys()].sort((a, b) => a - b);
  const label = seconds.length
    ? `Read and write units per second of ${plural(series.length, 'table')} ` +
      `(${series.map((t) => t.name).join(', ')}), in ${plural(seconds.length, 'second')} with traffic ` +
      `from ${formatTime(seconds[0] * 1000)} to ${formatTime(seconds[seconds.length - 1] * 1000)}; ` +
      `at most ${shortNumber(Math.max(...[...perSecond.values()].map((v) => v.read)))} read units and ` +
      `${shortNumber(Math.max(...[...perSecond.values()].map((v) => v.write)))} write units in one second`
    : 'Units per second: no traffic yet';
  return h('section', {class: 'chart-section'},
    h('h2', {id: 'profile-timeline'}, 'Units per second'),
    h('p', {class: 'hint'}, 'Read units above the line, write units below it (each on its own scale), ',
      'stacked by table; the last 600 seconds with traffic.'),
    timelineChart(series, {label}),
    legend(series.map((t) => [`series-${t.colour}`, t.name])));
}

function wasteSection(tables) {
  const resources = tables.flatMap((t) => [
    {title: t.TableName, kind: 'table', ...t},
    ...(t.Indexes ?? []).map((i) => ({...i, title: `${t.TableName} / ${i.IndexName}`,
                                      kind: i.Kind === 'LOCAL' ? 'local index' : 'global index'}))]);
  const rows = resources.filter((r) => r.ItemsRead > 0)
    .sort((a, b) => (b.ItemsRead - b.ItemsReturned) - (a.ItemsRead - a.ItemsReturned) ||
                    b.ItemsRead - a.ItemsRead)
    .map((r) => ({
      title: `${r.title} (${r.kind})`,
      segments: [{value: r.ItemsReturned, kind: 'returned', name: 'Items returned'},
                 {value: r.ItemsRead - r.ItemsReturned, kind: 'thrown', name: 'Items thrown away'}],
      note: r.ItemsRead > r.ItemsReturned
        ? `${wasteText(r.ItemsRead, r.ItemsReturned)} (${percent(r.FilterWaste ?? 0)})`
        : `all ${r.ItemsRead} items read returned`,
      highlight: r.ItemsRead > r.ItemsReturned,
    }));
  const label = rows.length
    ? `Items read and items returned, per table and index: ${rows.map((r) =>
        `${r.title}: ${r.segments[0].value} of ${r.segments[0].value + r.segments[1].value} returned`)
        .join('; ')}`
    : 'Items read and returned: nothing read yet';
  return h('section', {class: 'chart-section'},
    h('h2', {id: 'profile-waste'}, 'Filter waste'),
    h('p', {class: 'hint'}, 'Every item a Query or Scan reads is paid for, whether or not its filter ',
      'keeps it: a long red bar is a key condition or an index missing.'),
    barChart(rows, {label, labelWidth: 320}),
    legend([['returned', 'items returned'], ['thrown', 'items read, then thrown away by a filter']]));
}

function shapeText(shape) {
  return [shape.KeyCondition && `key ${shape.KeyCondition}`, shape.Filter && `filter ${shape.Filter}`,
          shape.Projection && `projection ${shape.Projection}`].filter(Boolean).join('  ·  ') ||
         '(no expression)';
}

function shapesSection(tables) {
  const shapes = tables.flatMap((t) => (t.Shapes ?? []).map((shape) => ({...shape, table: t.TableName})))
    .sort((a, b) => unitsOf(b) - unitsOf(a) || b.Count - a.Count).slice(0, kShapesShown);
  const rows = shapes.map((shape) => ({
    title: `${shape.Operation} · ${shape.table}${shape.IndexName ? ` / ${shape.IndexName}` : ''}`,
    subtitle: shapeText(shape),
    detail: [plural(shape.Count, 'request'), wasteText(shape.ItemsRead ?? 0, shape.ItemsReturned ?? 0),
             shape.Cost === undefined ? '' : formatCost(shape.Cost)].filter(Boolean).join(' · '),
    segments: [{value: shape.ReadUnits ?? 0, kind: 'read', name: 'Read units'},
               {value: shape.WriteUnits ?? 0, kind: 'write', name: 'Write units'}],
    note: `${shortNumber(unitsOf(shape))} units`,
  }));
  const label = rows.length
    ? `The ${plural(rows.length, 'most expensive request shape')}, by units: ${shapes.map((shape, i) =>
        `${rows[i].title}, ${rows[i].subtitle}: ${shortNumber(unitsOf(shape))} units`).join('; ')}`
    : 'Request shapes: none yet';
  return h('section', {class: 'chart-section'},
    h('h2', {id: 'profile-shapes'}, 'Most expensive request shapes'),
    h('p', {class: 'hint'}, 'Requests that differ only in their values are one shape (values written ?).'),
    barChart(rows, {label, labelWidth: 470}),
    legend([['read', 'read units'], ['write', 'write units']]));
}

function scansText(scans) {
  if (!scans?.Count) return '—';
  const mean = scans.MeanTableFraction ?? 0, max = scans.MaxTableFraction ?? 0;
  return `${plural(scans.Count, 'Scan')}, ${scans.ItemsRead} items read: on average ` +
         `${percent(mean)} of the table${max !== mean ? `, at most ${percent(max)}` : ''}`;
}

function tableSection(table) {
  const units = (value, bytes) => h('td', {class: 'num'}, shortNumber(value ?? 0),
    bytes ? h('span', {class: 'hint'}, ` (${formatBytes(bytes)})`) : null);
  const row = (resource, name, extra) => h('tr', extra,
    h('th', {scope: 'row'}, name),
    h('td', {}, requestsText(resource.Requests)),
    units(resource.ReadUnits, resource.ReadBytes), units(resource.WriteUnits, resource.WriteBytes),
    h('td', {class: 'num'}, `${resource.ItemsRead ?? 0} / ${resource.ItemsReturned ?? 0}`),
    h('td', {}, scansText(resource.Scans)),
    h('td', {class: 'num'}, resource.Cost === undefined ? '—' : formatCost(resource.Cost)));
  const neverRead = (table.Indexes ?? []).filter((i) => i.NeverRead);
  const hot = table.HotPartitionKeys ?? [];
  const heading = `profile-table-${table.TableName}`;
  return h('section', {class: 'profile-table', 'aria-labelledby': heading},
    h('h3', {id: heading}, h('a', {href: `#/table/${encodeURIComponent(table.TableName)}`}, table.TableName),
      h('span', {class: 'hint'}, ` ${shortNumber(table.CapacityUnits ?? unitsOf(table))} capacity units ` +
        `with its indexes${table.Cost === undefined ? '' : ` · ${formatCost(table.Cost)}`}`)),
    h('table', {class: 'grid profile'},
      h('thead', {}, h('tr', {}, ['Resource', 'Requests', 'Read units', 'Write units',
        'Items read / returned', 'Scans', 'Cost'].map((c) => h('th', {scope: 'col'}, c)))),
      h('tbody', {},
        row(table, `${table.TableName} (table)`),
        (table.Indexes ?? []).map((index) => row(index,
          // An index without a Kind is one the table no longer has.
          [`${index.IndexName} (${index.Kind ? `${index.Kind.toLowerCase()}, ${index.Projection}` : 'deleted'})`,
           ...(index.NeverRead ? [' ', h('span', {class: 'badge'}, 'never read')] : [])],
          {class: index.NeverRead ? 'never-read' : null})))),
    neverRead.length ? h('p', {class: 'never-read-note'},
      `Never read: ${neverRead.map((i) => i.IndexName).join(', ')} — every write still pays for ` +
      `${neverRead.length === 1 ? 'its entries' : 'their entries'}.`) : null,
    hot.length ? h('table', {class: 'grid hot-keys'},
      h('caption', {}, 'Hot partition keys'),
      h('thead', {}, h('tr', {}, ['Key', 'Index', 'Requests'].map((c) => h('th', {scope: 'col'}, c)))),
      h('tbody', {}, hot.map((k) => h('tr', {},
        h('td', {}, h('code', {}, plainJson({M: k.Key}, 0))), h('td', {}, k.IndexName || '(table)'),
        h('td', {class: 'num'}, k.Count))))) : null);
}

function render(content, data, namespace) {
  const databases = data.Databases ?? [];
  const database = databases.find((d) => d.Namespace === namespace) ??
                   (databases.length === 1 ? databases[0] : null);
  const tables = database?.Tables ?? [];
  content.replaceChildren(...summary(data), ...(tables.length
    ? [timelineSection(tables), wasteSection(tables), shapesSection(tables),
       h('section', {}, h('h2', {}, 'By table'), tables.map(tableSection))]
    : [h('p', {class: 'empty'}, 'No requests counted in this database yet.')]));
}

export async function profileView(root) {
  const output = h('output', {class: 'status', role: 'status'});
  const report = (text, isError = false) => {
    output.textContent = text;
    output.className = isError ? 'status error' : 'status';
  };
  const content = h('div', {class: 'profile'}, 'Loading…');
  const region = select(regions.map((r) => [r]), priceRegion, {name: 'price-region'});
  let namespace = '';
  let shownRegion = null;  // the region of the prices behind the figures shown

  async function refresh() {
    try {
      namespace = await currentNamespace();
      const data = await admin(`profile?namespace=${encodeURIComponent(namespace)}` +
                               `&region=${encodeURIComponent(priceRegion)}`);
      render(content, data, namespace);
      shownRegion = data.Prices?.Region ?? priceRegion;
    } catch (error) {
      report(`Profile: ${error.type ?? 'Error'}: ${error.message}`, true);
      const priced = /priced: ([\w, -]+)$/.exec(error.message ?? '');
      if (error.type === 'ValidationException' && priced) {
        regions = priced[1].split(',').map((r) => r.trim()).filter(Boolean);
        region.replaceChildren(...regions.map((r) => h('option', {value: r}, r)));
        // Back to the region of the figures shown (the first priced one if none are yet).
        const refused = priceRegion;
        priceRegion = shownRegion ?? regions[0];
        region.value = priceRegion;
        if (!shownRegion && priceRegion && priceRegion !== refused) await refresh();
      }
    }
  }
  region.addEventListener('change', () => { priceRegion = region.value; report(''); refresh(); });
  const reset = async () => {
    const which = namespace ? `database ${namespace}` : 'the database';
    if (!confirm(`Start the access profile of ${which} afresh?`)) return;
    try {
      await admin(`profile?namespace=${encodeURIComponent(namespace)}`, undefined, 'DELETE');
      report('Profile reset');
    } catch (error) {
      report(`Reset failed: ${error.message}`, true);
    }
    await refresh();
  };
  root.replaceChildren(
    h('h1', {}, 'Access profile'),
    h('p', {}, 'What the requests this database has answered would cost in DynamoDB, on demand, ',
      'and how they read the data: the units their ConsumedCapacity adds up to, the items filters ',
      'threw away, the costliest request shapes, hot keys and indexes no one reads.'),
    h('div', {class: 'row'}, field('Prices of region', region),
      h('button', {onclick: () => { report(''); refresh(); }}, 'Refresh'),
      h('button', {class: 'danger', onclick: reset}, 'Reset profile')),
    output, content);
  await refresh();
}
