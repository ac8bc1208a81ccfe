// The tables view: every table with its item count, size, keys, indexes,
// billing, TTL attribute and stream; creating a table from a form or from
// pasted create-table JSON; deleting one after a confirm.

import {ddb, describeTable, listTableNames} from './api.js';
import {status} from './clock.js';
import {field, formatBytes, h, keySchemaText, select} from './util.js';

function indexText(index, definitions) {
  const projection = index.Projection.ProjectionType +
      (index.Projection.NonKeyAttributes ? ` (${index.Projection.NonKeyAttributes.join(', ')})` : '');
  return h('li', {}, h('strong', {}, index.IndexName), ` ${keySchemaText(index.KeySchema, definitions)}; `,
           `${projection}; ${index.ItemCount ?? 0} items`);
}

function vectorIndexText(index) {
  const filters = (index.SearchSchema ?? []).map((e) => `${e.AttributeName} ${e.SearchSchemaElementType}`);
  return h('li', {}, h('strong', {}, `vector ${index.IndexName}`),
           ` ${index.VectorAttribute.AttributeName}, ${index.Dimensions} dimensions, ${index.DistanceFunction}` +
           `${filters.length ? ` (${filters.join(', ')})` : ''}; ${index.ItemCount ?? 0} items`);
}

function billingText(table) {
  if (table.BillingModeSummary?.BillingMode === 'PAY_PER_REQUEST') return 'on demand';
  const t = table.ProvisionedThroughput;
  return `provisioned ${t.ReadCapacityUnits} RCU / ${t.WriteCapacityUnits} WCU`;
}

function tableRow(table, refresh) {
  const indexes = [...(table.GlobalSecondaryIndexes ?? []).map((i) => ({...i, kind: 'GSI'})),
                   ...(table.LocalSecondaryIndexes ?? []).map((i) => ({...i, kind: 'LSI'}))];
  const remove = async () => {
    if (!confirm(`Delete table ${table.TableName} and all its items?`)) return;
    try {
      await ddb('DeleteTable', {TableName: table.TableName});
      status(`Deleted table ${table.TableName}`);
      refresh();
    } catch (error) {
      status(`DeleteTable: ${error.message}`, true);
    }
  };
  return h('tr', {},
    h('td', {}, h('a', {href: `#/table/${encodeURIComponent(table.TableName)}`}, table.TableName)),
    h('td', {}, table.TableStatus),
    h('td', {class: 'num'}, table.ItemCount),
    h('td', {class: 'num'}, formatBytes(table.TableSizeBytes)),
    h('td', {}, keySchemaText(table.KeySchema, table.AttributeDefinitions)),
    h('td', {}, indexes.length || table.VectorIndexes ? h('ul', {class: 'plain'},
        indexes.map((i) => indexText({...i, IndexName: `${i.kind} ${i.IndexName}`},
                                     table.AttributeDefinitions)),
        (table.VectorIndexes ?? []).map(vectorIndexText)) : '—'),
    h('td', {}, billingText(table)),
    h('td', {}, table.ttlAttribute ?? '—'),
    h('td', {}, table.StreamSpecification?.StreamEnabled ? table.StreamSpecification.StreamViewType : '—'),
    h('td', {}, h('button', {class: 'danger', onclick: remove,
                             'aria-label': `Delete table ${table.TableName}`}, 'Delete')));
}

// The create-table request built from the form.
function requestFromForm(form) {
  const value = (name) => form.elements[name].value.trim();
  const request = {
    TableName: value('name'),
    KeySchema: [{AttributeName: value('pk'), KeyType: 'HASH'}],
    AttributeDefinitions: [{AttributeName: value('pk'), AttributeType: value('pkType')}],
    BillingMode: 'PAY_PER_REQUEST',
  };
  if (value('sk')) {
    request.KeySchema.push({AttributeName: value('sk'), KeyType: 'RANGE'});
    request.AttributeDefinitions.push({AttributeName: value('sk'), AttributeType: value('skType')});
  }
  if (value('stream')) {
    request.StreamSpecification = {StreamEnabled: true, StreamViewType: value('stream')};
  }
  return request;
}

async function createTable(request, ttlAttribute) {
  await ddb('CreateTable', request);
  if (ttlAttribute) {
    await ddb('UpdateTimeToLive', {TableName: request.TableName,
      TimeToLiveSpecification: {Enabled: true, AttributeName: ttlAttribute}});
  }
}

function createForm(refresh) {
  const types = [['S', 'String'], ['N', 'Number'], ['B', 'Binary']];
  const streamTypes = [['', 'off'], ['NEW_AND_OLD_IMAGES'], ['NEW_IMAGE'], ['OLD_IMAGE'], ['KEYS_ONLY']];
  const error = h('p', {class: 'error', role: 'alert'});
  const form = h('form', {class: 'create-table'},
    h('h2', {}, 'Create a table'),
    h('div', {class: 'row'},
      field('Table name', h('input', {name: 'name'})),
      field('Partition key', h('input', {name: 'pk'})),
      field('Partition key type', select(types, 'S', {name: 'pkType'})),
      field('Sort key (optional)', h('input', {name: 'sk'})),
      field('Sort key type', select(types, 'S', {name: 'skType'}))),
    h('div', {class: 'row'},
      field('Stream', select(streamTypes, '', {name: 'stream'})),
      field('TTL attribute (optional)', h('input', {name: 'ttl'}))),
    h('details', {},
      h('summary', {}, 'Or paste create-table JSON (the request, as --cli-input-json takes it)'),
      h('textarea', {name: 'json', rows: 8, 'aria-label': 'create-table JSON',
                     placeholder: '{"TableName": "…", "KeySchema": […], "AttributeDefinitions": […], …}'})),
    h('button', {type: 'submit'}, 'Create table'), error);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    try {
      const pasted = form.elements.json.value.trim();
      const request = pasted ? JSON.parse(pasted) : requestFromForm(form);
      if (pasted && !request.BillingMode && !request.ProvisionedThroughput) {
        request.BillingMode = 'PAY_PER_REQUEST';
      }
      await createTable(request, form.elements.ttl.value.trim());
      status(`Created table ${request.TableName}`);
      form.reset();
      refresh();
    } catch (e) {
      error.textContent = `${e.type ? e.type + ': ' : ''}${e.message}`;
    }
  });
  return form;
}

export async function tablesView(root) {
  const body = h('tbody', {}, h('tr', {}, h('td', {colspan: 10}, 'Loading…')));
  const refresh = () => tablesView(root);
  root.replaceChildren(
    h('h1', {}, 'Tables'),
    h('table', {class: 'grid tables'},
      h('thead', {}, h('tr', {}, ['Name', 'Status', 'Items', 'Size', 'Key schema', 'Indexes',
                                  'Billing', 'TTL attribute', 'Stream', ''].map((c) => h('th', {}, c)))),
      body),
    createForm(refresh));
  try {
    // A table deleted between the list and its description is left out.
    const described = await Promise.allSettled((await listTableNames()).map(describeTable));
    const tables = described.filter((r) => r.status === 'fulfilled').map((r) => r.value);
    body.replaceChildren(...(tables.length ? tables.map((t) => tableRow(t, refresh))
        : [h('tr', {}, h('td', {colspan: 10}, 'No tables yet.'))]));
  } catch (error) {
    body.replaceChildren(h('tr', {}, h('td', {colspan: 10, class: 'error'}, error.message)));
  }
}
