// The console's Profile page against a known workload on a server of its
// own (so the profile holds this workload and nothing else): a table with a
// global index, 10 PutItems, one Query, one Scan whose filter keeps 2 of
// the 10 items. The page must show the units the requests' own
// ConsumedCapacity adds up to, the Scan's filter waste, the shapes with
// their values as ?, the index nothing reads, and charts with bars; then
// Refresh shows a new request and Reset empties the profile.
import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';

import {Client, launchBrowser, screenshot, startServer} from './harness.js';

let server;
let client;
let browser;
let page;
const pageErrors = [];  // uncaught errors in the console's scripts

before(async () => {
  server = await startServer();
  client = new Client(server.url);
  browser = await launchBrowser();
  page = await browser.newPage({viewport: {width: 1280, height: 1500}});
  page.on('dialog', (dialog) => dialog.accept());  // Reset asks first
  page.on('pageerror', (error) => pageErrors.push(error.message));
});

after(async () => {
  assert.deepEqual(pageErrors, []);
  await browser?.close();
  if (server) assert.equal(await server.stop(), 0, server.log());
});

// The page's short number: 3, 0.5, 10.
const shortNumber = (value) => String(+value.toFixed(value < 10 ? 2 : 1));

// What the requests' answers said they consumed (ReturnConsumedCapacity
// INDEXES), by table and index, and what they read and returned.
class Consumed {
  constructor() {
    this.units = {};  // '' (the table) or an index name -> {read, write}
    this.itemsRead = 0;
    this.itemsReturned = 0;
  }

  add(answer, write) {
    const c = answer.ConsumedCapacity;
    const parts = [['', c.Table.CapacityUnits],
                   ...Object.entries(c.GlobalSecondaryIndexes ?? {}).map(([n, u]) => [n, u.CapacityUnits])];
    for (const [name, units] of parts) {
      this.units[name] ??= {read: 0, write: 0};
      this.units[name][write ? 'write' : 'read'] += units;
    }
    if (answer.ScannedCount !== undefined) {
      this.itemsRead += answer.ScannedCount;
      this.itemsReturned += answer.Count;
    }
    return answer;
  }
}

async function workload() {
  await client.ddb('CreateTable', {TableName: 'orders', BillingMode: 'PAY_PER_REQUEST',
    KeySchema: [{AttributeName: 'customer', KeyType: 'HASH'}, {AttributeName: 'n', KeyType: 'RANGE'}],
    AttributeDefinitions: [{AttributeName: 'customer', AttributeType: 'S'},
                           {AttributeName: 'n', AttributeType: 'N'},
                           {AttributeName: 'status', AttributeType: 'S'}],
    GlobalSecondaryIndexes: [{IndexName: 'ByStatus', Projection: {ProjectionType: 'ALL'},
                              KeySchema: [{AttributeName: 'status', KeyType: 'HASH'}]}]});
  const consumed = new Consumed();
  for (let n = 0; n < 10; n++) {
    consumed.add(await client.ddb('PutItem', {TableName: 'orders', ReturnConsumedCapacity: 'INDEXES',
      Item: {customer: {S: n < 7 ? 'c#1' : 'c#2'}, n: {N: String(n)},
             status: {S: n < 2 ? 'open' : 'closed'}, total: {N: String(10 * n)}}}), true);
  }
  const query = consumed.add(await client.ddb('Query', {TableName: 'orders',
    ReturnConsumedCapacity: 'INDEXES', KeyConditionExpression: '#c = :c',
    ExpressionAttributeNames: {'#c': 'customer'}, ExpressionAttributeValues: {':c': {S: 'c#1'}}}));
  assert.equal(query.Count, 7);
  const scan = consumed.add(await client.ddb('Scan', {TableName: 'orders',
    ReturnConsumedCapacity: 'INDEXES', FilterExpression: '#s = :open',
    ExpressionAttributeNames: {'#s': 'status'}, ExpressionAttributeValues: {':open': {S: 'open'}}}));
  assert.deepEqual([scan.Count, scan.ScannedCount], [2, 10]);
  return consumed;
}

const tableSection = () => page.locator('section.profile-table').filter({
  has: page.getByRole('heading', {name: /^orders/})});
const chart = (heading) => page.locator('section.chart-section').filter({
  has: page.getByRole('heading', {name: heading})}).getByRole('img');

test('the profile page shows units, filter waste, shapes and the index never read', async () => {
  const consumed = await workload();
  const table = consumed.units[''];
  const index = consumed.units.ByStatus;
  assert.ok(index.write > 0, 'the puts wrote the index');

  await page.goto(`${server.url}/#/profile`);
  await page.getByRole('heading', {name: 'Access profile'}).waitFor();
  await tableSection().waitFor();

  // The table's row: requests by operation, its own units, items read / returned.
  const tableRow = tableSection().locator('tbody tr').filter({hasText: 'orders (table)'});
  const cells = await tableRow.locator('th, td').allInnerTexts();
  assert.equal(cells[0], 'orders (table)');
  assert.equal(cells[1], 'PutItem 10 · Query 1 · Scan 1');
  assert.match(cells[2], new RegExp(`^${shortNumber(table.read)}\\b`));
  assert.match(cells[3], new RegExp(`^${shortNumber(table.write)}\\b`));
  assert.equal(cells[4], `${consumed.itemsRead} / ${consumed.itemsReturned}`);
  assert.equal(cells[5], '1 Scan, 10 items read: on average 100% of the table');

  // The index: only written, so highlighted as never read, with its write units.
  const indexRow = tableSection().locator('tbody tr.never-read');
  assert.equal(await indexRow.count(), 1);
  assert.match(await indexRow.locator('th').innerText(), /^ByStatus \(global, ALL\) never read$/);
  assert.match((await indexRow.locator('td').allInnerTexts())[2],
               new RegExp(`^${shortNumber(index.write)}\\b`));
  await tableSection().getByText(/^Never read: ByStatus/).waitFor();

  // The hottest partition key: c#1 (7 puts and the Query).
  const firstHot = tableSection().locator('table.hot-keys tbody tr').first();
  assert.match(await firstHot.innerText(), /^\{"customer":"c#1"\}\s+\(table\)\s+\d+$/);

  // The figures on top are the server's own totals, at us-east-1's prices.
  const namespace = (await client.admin('namespace?accessKey=console&region=us-east-1')).Namespace;
  const answer = await client.admin(`profile?namespace=${encodeURIComponent(namespace)}&region=us-east-1`);
  const units = Object.values(consumed.units).reduce((sum, u) => ({read: sum.read + u.read,
                                                                    write: sum.write + u.write}));
  assert.deepEqual([answer.ReadUnits, answer.WriteUnits], [units.read, units.write]);
  const card = (name) => page.locator('dl.cards .card').filter({hasText: name}).locator('dd').first();
  assert.equal(await card('Read units').innerText(), shortNumber(units.read));
  assert.equal(await card('Write units').innerText(), shortNumber(units.write));
  assert.match(await card('Estimated cost').innerText(), /^\$0\.0000\d+$/);
  assert.ok(Math.abs(answer.Cost - (units.read * answer.Prices.ReadRequestUnitsPerMillion +
                                    units.write * answer.Prices.WriteRequestUnitsPerMillion) / 1e6) < 1e-15);

  // Filter waste: the table read 17 items for 9 returned; one bar returned, one thrown away.
  const waste = chart('Filter waste');
  const thrown = consumed.itemsRead - consumed.itemsReturned;
  assert.match(await waste.textContent(),
               new RegExp(`orders \\(table\\).*${thrown} of ${consumed.itemsRead} items read thrown away`));
  assert.equal(await waste.locator('rect.bar.returned').count(), 1);
  assert.equal(await waste.locator('rect.bar.thrown').count(), 1);
  assert.match(await waste.getAttribute('aria-label'), /orders \(table\): 9 of 17 returned/);

  // Shapes: the values are ?, the Scan threw 8 of its 10 items away.
  const shapes = chart('Most expensive request shapes');
  const shapeText = await shapes.textContent();
  assert.match(shapeText, /Scan · orders.*filter status = \?.*1 request · 8 of 10 items read thrown away/);
  assert.match(shapeText, /Query · orders.*key customer = \?/);
  assert.match(shapeText, /PutItem · orders/);
  assert.doesNotMatch(shapeText, /c#1|open|:c|#s/, 'no value or placeholder name in a shape');
  assert.ok(await shapes.locator('rect.bar.read').count() >= 2, 'the Query and the Scan read');
  assert.ok(await shapes.locator('rect.bar.write').count() >= 1, 'the puts wrote');

  // Units per second: bars for reads (above the line) and writes (below).
  const timeline = chart('Units per second');
  assert.ok(await timeline.locator('rect.bar.up').count() >= 1);
  assert.ok(await timeline.locator('rect.bar.down').count() >= 1);
  assert.match(await timeline.getAttribute('aria-label'),
               /^Read and write units per second of 1 table \(orders\)/);
  await screenshot(page, 'console-profile');

  // Another region's prices.
  await page.getByLabel('Prices of region').selectOption('us-west-2');
  await page.locator('dl.cards').getByText('on demand, us-west-2').waitFor();
  await page.getByText(/On-demand prices of us-west-2 \(read \d{4}-\d\d-\d\d\)/).waitFor();

  // A region the server has no prices for: it names those it has, the
  // picker narrows to them and goes back to the region shown.
  const refusal = await client.admin('profile?region=nowhere-1');
  const priced = /priced: (.+)$/.exec(refusal.message)[1].split(', ');
  const picker = page.getByLabel('Prices of region');
  const unpriced = (await picker.locator('option').allInnerTexts()).find((r) => !priced.includes(r));
  if (unpriced) {
    await picker.selectOption(unpriced);
    await page.getByRole('status').filter({hasText: `No on-demand prices for region ${unpriced}`}).waitFor();
    assert.deepEqual(await picker.locator('option').allInnerTexts(), priced);
    assert.equal(await picker.inputValue(), 'us-west-2');
    await page.locator('dl.cards').getByText('on demand, us-west-2').waitFor();
  }
});

test('Refresh shows new requests; Reset empties the profile', async () => {
  await client.ddb('GetItem', {TableName: 'orders', Key: {customer: {S: 'c#2'}, n: {N: '7'}}});
  const tableRow = tableSection().locator('tbody tr').filter({hasText: 'orders (table)'});
  await page.getByRole('button', {name: 'Refresh'}).click();
  await tableRow.filter({hasText: 'GetItem 1'}).waitFor();

  await page.getByRole('button', {name: 'Reset profile'}).click();
  await page.getByRole('status').filter({hasText: 'Profile reset'}).waitFor();
  await page.getByText('No requests counted in this database yet.').waitFor();
  const namespace = (await client.admin('namespace?accessKey=console&region=us-east-1')).Namespace;
  const answer = await client.admin(`profile?namespace=${encodeURIComponent(namespace)}`);
  assert.equal(answer.Requests, 0);
});
