// The items view of one table: pages of a Scan or a Query (with a builder
// for the key condition and one optional filter) on the table or an index,
// newest first where the sort key allows; columns from the attributes
// present; TTL countdowns; opening, creating and deleting items.

import {ddb} from './api.js';
import {now, status} from './clock.js';
import {openEditor} from './editor.js';
import {vectorSearchPanel} from './vectors.js';
import {cellText, field, formatDuration, h, keyOf, onLeave, select} from './util.js';

const kMaxColumns = 16;
const kSweepWaitMillis = 2000;
const kSortOperators = [['', 'any'], ['='], ['<'], ['<='], ['>'], ['>='],
                        ['begins_with', 'begins with'], ['between']];
const kFilterOperators = [['='], ['<>'], ['<'], ['<='], ['>'], ['>='], ['begins_with', 'begins with'],
                          ['contains'], ['attribute_exists', 'exists'],
                          ['attribute_not_exists', 'does not exist']];

// The query settings survive refreshes of the same table.
let saved = {tableName: null};

function freshState(table) {
  return {tableName: table.TableName, source: '', mode: 'scan', pk: '', skOp: '', sk1: '', sk2: '',
          filterAttr: '', filterOp: '=', filterValue: '', filterType: 'S',
          newestFirst: true, pageSize: 25, starts: [undefined], page: 0,
          rereadFor: new Set()};  // keys of expired items already read again
}

// The key schema of the table or of the chosen index.
function sourceKeys(table, source) {
  if (!source) return table.KeySchema;
  const indexes = [...(table.GlobalSecondaryIndexes ?? []), ...(table.LocalSecondaryIndexes ?? [])];
  return indexes.find((i) => i.IndexName === source).KeySchema;
}

function typed(table, attribute, text) {
  const type = table.AttributeDefinitions.find((d) => d.AttributeName === attribute)?.AttributeType;
  return {[type ?? 'S']: text};
}

function filterValue(state) {
  if (state.filterType === 'BOOL') return {BOOL: state.filterValue === 'true'};
  return {[state.filterType]: state.filterValue};
}

// Adds the optional filter to `request`.
function addFilter(state, request) {
  if (!state.filterAttr) return;
  request.ExpressionAttributeNames['#f'] = state.filterAttr;
  const op = state.filterOp;
  if (op.startsWith('attribute_')) {
    request.FilterExpression = `${op}(#f)`;
    return;
  }
  request.ExpressionAttributeValues[':f'] = filterValue(state);
  request.FilterExpression = ['begins_with', 'contains'].includes(op) ? `${op}(#f, :f)` : `#f ${op} :f`;
}

function buildRequest(table, state) {
  const keys = sourceKeys(table, state.source);
  const request = {TableName: table.TableName, Limit: state.pageSize,
                   ExpressionAttributeNames: {}, ExpressionAttributeValues: {}};
  if (state.source) request.IndexName = state.source;
  if (state.starts[state.page]) request.ExclusiveStartKey = state.starts[state.page];
  if (state.mode === 'query') {
    const [pk, sk] = [keys[0].AttributeName, keys[1]?.AttributeName];
    request.ExpressionAttributeNames['#pk'] = pk;
    request.ExpressionAttributeValues[':pk'] = typed(table, pk, state.pk);
    let condition = '#pk = :pk';
    if (sk && state.skOp) {
      request.ExpressionAttributeNames['#sk'] = sk;
      request.ExpressionAttributeValues[':sk1'] = typed(table, sk, state.sk1);
      if (state.skOp === 'begins_with') condition += ' AND begins_with(#sk, :sk1)';
      else if (state.skOp === 'between') {
        request.ExpressionAttributeValues[':sk2'] = typed(table, sk, state.sk2);
        condition += ' AND #sk BETWEEN :sk1 AND :sk2';
      } else condition += ` AND #sk ${state.skOp} :sk1`;
    }
    request.KeyConditionExpression = condition;
    if (sk) request.ScanIndexForward = !state.newestFirst;
  }
  addFilter(state, request);
  if (!Object.keys(request.ExpressionAttributeNames).length) delete request.ExpressionAttributeNames;
  if (!Object.keys(request.ExpressionAttributeValues).length) delete request.ExpressionAttributeValues;
  return request;
}

// Key attributes first (table, then index), then the others by name.
function columnsOf(table, state, items) {
  const first = [...table.KeySchema, ...(state.source ? sourceKeys(table, state.source) : [])]
      .map((k) => k.AttributeName);
  const others = new Set();
  for (const item of items) for (const name of Object.keys(item)) others.add(name);
  if (table.ttlAttribute && others.has(table.ttlAttribute)) first.push(table.ttlAttribute);
  const rest = [...others].filter((n) => !first.includes(n)).sort();
  return [...new Set(first), ...rest].slice(0, kMaxColumns);
}

// The TTL attribute's cell: its value and the time left until expiry.
function ttlCell(value, key) {
  if (value?.N === undefined) return h('td', {class: 'ttl'}, cellText(value));
  return h('td', {class: 'ttl'}, value.N, ' ',
           h('span', {class: 'countdown', 'data-expiry': value.N, 'data-key': key}));
}

// TTL cells say how long until expiry, by the emulator's clock; returns
// the keys of the shown items that have expired.
function updateCountdowns(root) {
  const expired = [];
  for (const cell of root.querySelectorAll('[data-expiry]')) {
    const left = Number(cell.dataset.expiry) - now() / 1000;
    cell.textContent = left > 0 ? `in ${formatDuration(left)}` : `expired ${formatDuration(-left)} ago`;
    cell.classList.toggle('expired', left <= 0);
    if (left <= 0) expired.push(cell.dataset.key);
  }
  return expired;
}

// An item seen expired is read again once, a moment later: the server's
// background sweep (--ttl-interval) deletes it within about a second, and
// it vanishes from view. With the sweep off it stays, shown as expired.
function watchExpiry(state, results, reload) {
  let pending = null;
  const tick = () => {
    const fresh = updateCountdowns(results).filter((key) => !state.rereadFor.has(key));
    if (!fresh.length || pending) return;
    for (const key of fresh) state.rereadFor.add(key);
    pending = setTimeout(() => { pending = null; reload(false); }, kSweepWaitMillis);
  };
  const timer = setInterval(tick, 1000);
  onLeave(() => { clearInterval(timer); clearTimeout(pending); });
  return tick;
}

function controls(table, state, reload) {
  const keys = sourceKeys(table, state.source);
  const set = (name) => (event) => { state[name] = event.target.value; };
  const indexes = [...(table.GlobalSecondaryIndexes ?? []), ...(table.LocalSecondaryIndexes ?? [])];
  const sourceSelect = select([['', `table ${table.TableName}`],
                               ...indexes.map((i) => [i.IndexName, `index ${i.IndexName}`])],
                              state.source, {name: 'source', onchange: (e) => {
                                state.source = e.target.value; state.skOp = ''; reload(true);
                              }});
  const modeSelect = select([['scan', 'Scan'], ['query', 'Query']], state.mode,
                            {name: 'mode', onchange: (e) => { state.mode = e.target.value; reload(true); }});
  const form = h('form', {class: 'query'},
    h('div', {class: 'row'}, field('Operation', modeSelect), field('Read from', sourceSelect),
      field('Page size', select([['25'], ['50'], ['100']], String(state.pageSize),
                                {onchange: (e) => { state.pageSize = Number(e.target.value); }}))));
  if (state.mode === 'query') {
    const row = h('div', {class: 'row'},
      field(`${keys[0].AttributeName} =`, h('input', {name: 'pk', value: state.pk, oninput: set('pk'),
                                                      required: true})));
    if (keys[1]) {
      row.append(
        field(`${keys[1].AttributeName}`, select(kSortOperators, state.skOp,
              {name: 'skOp', onchange: (e) => { state.skOp = e.target.value; reload(true, false); }})),
        state.skOp ? field('value', h('input', {name: 'sk1', value: state.sk1, oninput: set('sk1')})) : '',
        state.skOp === 'between' ? field('and', h('input', {name: 'sk2', value: state.sk2,
                                                            oninput: set('sk2')})) : '',
        field('Newest first', h('input', {type: 'checkbox', name: 'newestFirst', checked: state.newestFirst,
                                          onchange: (e) => { state.newestFirst = e.target.checked; }})));
    }
    form.append(row);
  }
  form.append(h('div', {class: 'row'},
    field('Filter attribute', h('input', {name: 'filterAttr', value: state.filterAttr,
                                          oninput: set('filterAttr'), placeholder: 'none'})),
    field('Filter', select(kFilterOperators, state.filterOp, {name: 'filterOp', onchange: set('filterOp')})),
    field('Filter value', h('input', {name: 'filterValue', value: state.filterValue,
                                      oninput: set('filterValue')})),
    field('Value type', select([['S', 'String'], ['N', 'Number'], ['BOOL', 'Boolean']], state.filterType,
                               {name: 'filterType', onchange: set('filterType')})),
    h('button', {type: 'submit'}, state.mode === 'query' ? 'Run query' : 'Run scan')));
  form.addEventListener('submit', (event) => { event.preventDefault(); reload(true); });
  return form;
}

function itemsTable(table, state, items, reload) {
  const columns = columnsOf(table, state, items);
  // The editor gets the whole item as stored now: an index page may hold
  // only projected attributes, and saving those would drop the others.
  const open = async (item) => {
    try {
      const {Item} = await ddb('GetItem', {TableName: table.TableName, ConsistentRead: true,
                                           Key: keyOf(item, table.KeySchema)});
      if (Item) openEditor(table, Item, () => reload(false));
      else status('That item is gone (deleted since this page was read)', true);
    } catch (error) {
      status(`GetItem: ${error.message}`, true);
    }
  };
  const remove = async (item) => {
    if (!confirm('Delete this item?')) return;
    try {
      await ddb('DeleteItem', {TableName: table.TableName, Key: keyOf(item, table.KeySchema)});
      status('Item deleted');
      reload(false);
    } catch (error) {
      status(`DeleteItem: ${error.message}`, true);
    }
  };
  const rows = items.map((item) => h('tr', {tabindex: 0, onkeydown: (e) => { if (e.key === 'Enter') open(item); },
                                            ondblclick: () => open(item)},
    columns.map((c) => c === table.ttlAttribute ? ttlCell(item[c], JSON.stringify(keyOf(item, table.KeySchema)))
                                                : h('td', {}, cellText(item[c]))),
    h('td', {class: 'actions'}, h('button', {onclick: () => open(item)}, 'Open'),
      h('button', {class: 'danger', onclick: () => remove(item)}, 'Delete'))));
  return h('table', {class: 'grid items'},
    h('thead', {}, h('tr', {}, columns.map((c) => h('th', {}, c === table.ttlAttribute ? `${c} (TTL)` : c)),
                     h('th', {}, ''))),
    h('tbody', {}, rows.length ? rows : h('tr', {}, h('td', {colspan: columns.length + 1}, 'No items on this page.'))));
}

// Single-key shortcuts, except while typing or in the editor.
function keyboardShortcut(event, actions) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest('input, textarea, select, dialog')) return;
  const action = actions[event.key];
  if (!action) return;
  event.preventDefault();
  action();
}

function pagerButtons(state, page, go) {
  return [
    h('button', {onclick: () => go(0), disabled: state.page === 0}, 'First page'),
    h('button', {class: 'previous', onclick: () => go(state.page - 1), disabled: state.page === 0},
      'Previous page'),
    h('output', {class: 'page-number'},
      ` page ${state.page + 1} · ${page.Count} item(s), ${page.ScannedCount} read `),
    h('button', {class: 'next', onclick: () => go(state.page + 1), disabled: !page.LastEvaluatedKey},
      'Next page')];
}

export async function itemsView(root, table) {
  if (saved.tableName !== table.TableName) saved = freshState(table);
  const state = saved;
  const results = h('div', {class: 'results'}, 'Loading…');
  const pager = h('div', {class: 'pager'});
  const controlsHolder = h('div');
  let latest = 0;  // only the newest request's answer is shown
  let expiryTick;
  const go = (page) => { state.page = page; reload(false); };
  const reload = async (restart, fetchItems = true) => {
    if (restart) { state.starts = [undefined]; state.page = 0; }
    controlsHolder.replaceChildren(controls(table, state, reload));
    if (!fetchItems) return;
    if (state.mode === 'query' && !state.pk) {
      results.replaceChildren(h('p', {}, 'Enter the partition key value and run the query.'));
      pager.replaceChildren();
      return;
    }
    const ticket = ++latest;
    try {
      const page = await ddb(state.mode === 'query' ? 'Query' : 'Scan', buildRequest(table, state));
      if (ticket !== latest) return;
      state.starts[state.page + 1] = page.LastEvaluatedKey;
      results.replaceChildren(itemsTable(table, state, page.Items, reload));
      expiryTick();
      performance.mark('items-shown');  // page-load measurements read it
      pager.replaceChildren(...pagerButtons(state, page, go));
    } catch (error) {
      if (ticket !== latest) return;
      results.replaceChildren(h('p', {class: 'error', role: 'alert'}, `${error.type}: ${error.message}`));
    }
  };
  const actions = {
    n: () => openEditor(table, null, () => reload(false)),
    r: () => reload(false),
    ']': () => pager.querySelector('.next:not(:disabled)')?.click(),
    '[': () => pager.querySelector('.previous:not(:disabled)')?.click(),
    '/': () => root.querySelector('[name=pk], [name=filterAttr]')?.focus(),
  };
  root.replaceChildren(controlsHolder,
    h('div', {class: 'toolbar'},
      h('button', {onclick: actions.n}, 'New item'),
      h('button', {onclick: actions.r}, 'Refresh'),
      h('span', {class: 'hint'}, 'Keys: n new item · r refresh · [ ] previous / next page · / query fields · ' +
                                 'Enter opens the focused row')),
    results, pager, vectorSearchPanel(table));
  expiryTick = watchExpiry(state, results, reload);
  const shortcuts = (event) => keyboardShortcut(event, actions);
  document.addEventListener('keydown', shortcuts);
  onLeave(() => document.removeEventListener('keydown', shortcuts));
  await reload(false);
}
