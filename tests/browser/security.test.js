// Who may reach the server from a web page, in a real browser (server/
// access_policy.h; docs/security.md is the threat model). Chromium maps the
// test names attacker.test, rebind.test and console.test to 127.0.0.1
// (--host-resolver-rules), so every page below runs on this machine, yet
// each is its own origin to the browser; Chromium's own Local Network
// Access checks are off, so what holds is the server's doing. What this
// proves:
//  1. A page of another origin (http://attacker.test:<port>/) can neither
//     read a table (its CORS requests fail: no preflight or answer is
//     allowed) nor change anything through the admin API, not even with
//     no-cors "simple" POSTs, which the browser sends without asking; the
//     tables, their items and the clock are checked from Node afterwards.
//     A control run against a server started with -cors '*' shows the very
//     same page does read the table there: the refusal is the server's,
//     not the browser's.
//  2. DNS rebinding: a page served as http://rebind.test:<server port>/ is
//     same-origin with the server, so it may read the answers, and they
//     are all 403 (CrossOriginRequestException for what carries an Origin,
//     HostNotAllowedException for the admin API's and the console's GETs,
//     which carry none); nothing changes.
//  3. An app on a loopback origin (http://localhost:<port>/, as a dev
//     server on :3000 would be) reads the table with CORS, and is answered
//     with its own origin in Access-Control-Allow-Origin, not "*".
//  4. The console opens at http://localhost:<server port>/; at
//     http://console.test:<server port>/ it is refused unless the server
//     was started with --allowed-hosts console.test.
//  5. With --admin-token, the console asks for the token once and sends it
//     on its admin calls (the clock moves).
import assert from 'node:assert/strict';
import http from 'node:http';
import {after, before, beforeEach, test} from 'node:test';

import {Client, launchBrowser, startServer} from './harness.js';

const kTable = 'secrets';
const kItems = [
  {id: {S: 'a'}, secret: {S: 'the first secret'}, n: {N: '1'}},
  {id: {S: 'b'}, secret: {S: 'the second secret'}, n: {N: '2'}},
  {id: {S: 'c'}, secret: {S: 'the third secret'}, n: {N: '3'}},
];
const kAuthorization = 'AWS4-HMAC-SHA256 Credential=tests/20260101/us-east-1/dynamodb/aws4_request, ' +
                       'SignedHeaders=host, Signature=0';
const kResolverRules = ['attacker.test', 'rebind.test', 'console.test']
  .map((name) => `MAP ${name} 127.0.0.1`).join(', ');

let server;   // started with the defaults: loopback pages only
let client;
let port;     // the server's
let browser;
const stopLater = [];  // more servers and page servers, stopped after the tests

before(async () => {
  server = await startServer();
  client = new Client(server.url);
  port = new URL(server.url).port;
  // Chromium's own Local Network Access checks would block the rebound
  // page of the DNS-rebinding test (a page it does not know to be loopback
  // calling loopback); other browsers have no such check, and the server
  // must hold by itself, so these tests run without it.
  browser = await launchBrowser([`--host-resolver-rules=${kResolverRules}`,
                                 '--disable-features=LocalNetworkAccessChecks']);
});

// Each test starts from the table with its items and the clock unmoved,
// whatever an attack that got through in an earlier test did.
beforeEach(async () => {
  await client.admin('reset', {});
  await client.admin('clock', {Reset: true});
  await createTable(client);
});

after(async () => {
  await browser?.close();
  for (const stop of stopLater.reverse()) await stop();
  if (server) assert.equal(await server.stop(), 0, server.log());
});

async function createTable(api) {
  await api.ddb('CreateTable', {TableName: kTable, BillingMode: 'PAY_PER_REQUEST',
    KeySchema: [{AttributeName: 'id', KeyType: 'HASH'}],
    AttributeDefinitions: [{AttributeName: 'id', AttributeType: 'S'}]});
  await api.load(kTable, kItems);
}

const byId = (items) => [...items].sort((a, b) => a.id.S.localeCompare(b.id.S));

// From Node: the table and its items are all there and the clock never
// moved, i.e. no reset, no clock change, no write got through.
async function assertUntouched(api) {
  const {TableNames} = await api.ddb('ListTables', {});
  assert.deepEqual(TableNames, [kTable]);
  const {Items} = await api.ddb('Scan', {TableName: kTable});
  assert.deepEqual(byId(Items), kItems);
  const clock = await api.admin('clock');
  assert.equal(clock.OffsetMillis, 0, JSON.stringify(clock));
}

// fetch() options for a DynamoDB call, as an SDK in a page would send it.
function ddbCall(operation, body, target = 'DynamoDB_20120810') {
  return {method: 'POST', body: JSON.stringify(body), headers: {
    'Content-Type': 'application/x-amz-json-1.0',
    'X-Amz-Target': `${target}.${operation}`,
    'Authorization': kAuthorization}};
}

// A page whose script makes `attempts` ([name, url, fetch options] each)
// one after the other as soon as it loads, and keeps what each gave in the
// promise window.attempts: {name, error} when fetch threw, {name, opaque}
// for a no-cors answer (unreadable by design), else {name, status, type
// (the body's __type), body}.
function pageMaking(attempts) {
  return `<!doctype html><meta charset="utf-8"><title>a page</title>
<script>
async function attempt([name, url, init]) {
  try {
    const response = await fetch(url, init);
    if (response.type === 'opaque') return {name, opaque: true};
    const body = await response.text();
    let type;
    try { type = JSON.parse(body).__type; } catch {}
    return {name, status: response.status, type, body};
  } catch (error) {
    return {name, error: String(error)};
  }
}
window.attempts = (async () => {
  const results = [];
  for (const one of ${JSON.stringify(attempts)}) results.push(await attempt(one));
  return results;
})();
</script>`;
}

// Serves `html` at every path from 127.0.0.1 on a free port: the page of an
// origin other than the server's (another port at least).
async function servePage(html) {
  const site = http.createServer((request, response) => {
    response.writeHead(200, {'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store'});
    response.end(html);
  });
  await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
  stopLater.push(() => new Promise((resolve) => { site.closeAllConnections(); site.close(resolve); }));
  return site.address().port;
}

// Opens `url` in a fresh context (no cache, no cookies shared with other
// tests); fails the test on an uncaught error in the page.
async function openPage(url, {route} = {}) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  if (route) await route(page);
  const response = await page.goto(url);
  return {page, response, errors, close: () => context.close()};
}

// What the attacker page tries against the server at `base`.
function crossOriginAttempts(base) {
  return [
    ['ListTables', `${base}/`, ddbCall('ListTables', {})],
    ['Scan', `${base}/`, ddbCall('Scan', {TableName: kTable})],
    ['DeleteTable', `${base}/`, ddbCall('DeleteTable', {TableName: kTable})],
    ['GET clock', `${base}/_localdynamo/clock`, {}],
    ['POST reset', `${base}/_localdynamo/reset`, {method: 'POST', body: '{}'}],
    // Simple requests: the browser sends them without a preflight, and
    // only hides the answer from the page.
    ['no-cors reset', `${base}/_localdynamo/reset`,
     {method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'}, body: '{}'}],
    ['no-cors clock', `${base}/_localdynamo/clock`,
     {method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'},
      body: JSON.stringify({AdvanceSeconds: 3600})}],
  ];
}

test('a page of another origin reads nothing and changes nothing', async () => {
  const attackerPort = await servePage(pageMaking(crossOriginAttempts(server.url)));
  const attacker = await openPage(`http://attacker.test:${attackerPort}/`);
  try {
    assert.equal(attacker.response.status(), 200);
    assert.equal(await attacker.page.evaluate(() => location.origin), `http://attacker.test:${attackerPort}`);
    const results = await attacker.page.evaluate(() => window.attempts);
    const failed = 'TypeError: Failed to fetch';
    assert.deepEqual(results.map(({name, error, opaque, status}) => [name, error ?? (opaque ? 'opaque' : status)]), [
      ['ListTables', failed], ['Scan', failed], ['DeleteTable', failed], ['GET clock', failed],
      ['POST reset', failed], ['no-cors reset', 'opaque'], ['no-cors clock', 'opaque']]);
    assert.deepEqual(attacker.errors, []);
  } finally {
    await attacker.close();
  }
  // Every attempt was answered before window.attempts settled.
  await assertUntouched(client);
});

test('control: with -cors \'*\' the same page does read the table', async () => {
  // Proves the attack above is real: the browser lets this page reach the
  // server, so only the server's answers stopped it.
  const open = await startServer(['-cors', '*']);
  stopLater.push(async () => assert.equal(await open.stop(), 0, open.log()));
  await createTable(new Client(open.url));
  const attackerPort = await servePage(pageMaking(crossOriginAttempts(open.url).slice(0, 2)));
  const attacker = await openPage(`http://attacker.test:${attackerPort}/`);
  try {
    const [listed, scanned] = await attacker.page.evaluate(() => window.attempts);
    assert.equal(listed.status, 200, JSON.stringify(listed));
    assert.deepEqual(JSON.parse(listed.body).TableNames, [kTable]);
    assert.equal(scanned.status, 200, JSON.stringify(scanned));
    assert.deepEqual(byId(JSON.parse(scanned.body).Items), kItems);
  } finally {
    await attacker.close();
  }
});

test('a DNS-rebound page on the server\'s own origin gets only refusals', async () => {
  // rebind.test resolves to 127.0.0.1: http://rebind.test:<port> is the
  // server's own address under the attacker's name. The attacker's page is
  // served there by routing this one URL; everything else the page asks
  // for reaches the real server, same-origin, so the page reads the answers.
  const attackUrl = `http://rebind.test:${port}/attack.html`;
  const crossOrigin = 'localdynamo#CrossOriginRequestException';  // the request carried an Origin
  const hostRefused = 'localdynamo#HostNotAllowedException';      // a same-origin GET: the Host tells
  const expected = [
    ['ListTables', '/', ddbCall('ListTables', {}), crossOrigin],
    ['Scan', '/', ddbCall('Scan', {TableName: kTable}), crossOrigin],
    ['PutItem', '/', ddbCall('PutItem', {TableName: kTable, Item: {id: {S: 'a'}}}), crossOrigin],
    ['ListStreams', '/', ddbCall('ListStreams', {TableName: kTable}, 'DynamoDBStreams_20120810'), crossOrigin],
    ['GET clock', '/_localdynamo/clock', {}, hostRefused],
    ['GET snapshots', '/_localdynamo/snapshots', {}, hostRefused],
    ['GET console', '/', {headers: {Accept: 'text/html'}}, hostRefused],
    ['GET console script', '/_localdynamo/console/app.js', {}, hostRefused],
    ['POST reset', '/_localdynamo/reset', {method: 'POST', body: '{}'}, crossOrigin],
    ['POST clock', '/_localdynamo/clock',
     {method: 'POST', headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({AdvanceSeconds: 3600})}, crossOrigin],
  ];
  const html = pageMaking(expected.map(([name, url, init]) => [name, url, init]));
  let routed = 0;
  const rebound = await openPage(attackUrl, {route: (page) => page.route(attackUrl, (route) => {
    routed++;
    return route.fulfill({body: html, contentType: 'text/html'});
  })});
  try {
    assert.equal(await rebound.page.evaluate(() => location.origin), `http://rebind.test:${port}`);
    const results = await rebound.page.evaluate(() => window.attempts);
    assert.equal(routed, 1, 'only the page itself is routed');
    assert.deepEqual(results.map(({name, error, status, type}) => [name, error ?? status, type]),
                     expected.map(([name, , , type]) => [name, 403, type]));
    for (const {body} of results) assert.match(body, /rebind\.test/);  // the refusal names what it refused
    assert.deepEqual(rebound.errors, []);
  } finally {
    await rebound.close();
  }
  await assertUntouched(client);
});

test('an app on a localhost origin reads the table with CORS', async () => {
  const appPort = await servePage(pageMaking([
    ['ListTables', `${server.url}/`, ddbCall('ListTables', {})],
    ['Scan', `${server.url}/`, ddbCall('Scan', {TableName: kTable})]]));
  const appOrigin = `http://localhost:${appPort}`;
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const answered = page.waitForResponse((response) =>
      response.url() === `${server.url}/` && response.request().method() === 'POST');
    await page.goto(`${appOrigin}/`);
    const [listed, scanned] = await page.evaluate(() => window.attempts);
    assert.equal(listed.status, 200, JSON.stringify(listed));
    assert.deepEqual(JSON.parse(listed.body).TableNames, [kTable]);
    assert.equal(scanned.status, 200, JSON.stringify(scanned));
    assert.deepEqual(byId(JSON.parse(scanned.body).Items), kItems);
    // The app's own origin is named, not every origin.
    const headers = await (await answered).allHeaders();
    assert.equal(headers['access-control-allow-origin'], appOrigin);
  } finally {
    await context.close();
  }
});

test('the console opens on localhost, and on another name only if allowed', async () => {
  const tableRow = (page) => page.locator('table.tables tbody tr').filter({hasText: kTable});

  const local = await openPage(`http://localhost:${port}/`);
  try {
    await tableRow(local.page).waitFor();
    assert.deepEqual(local.errors, []);
  } finally {
    await local.close();
  }

  // console.test resolves to 127.0.0.1, but this server was not told the name.
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const refusedUrl = `http://console.test:${port}/`;
    const answered = page.waitForResponse(refusedUrl);
    // Chromium shows no page for a refusal in JSON: the navigation may fail.
    await page.goto(refusedUrl).catch(() => {});
    assert.equal((await answered).status(), 403);
    assert.equal(await page.locator('table.tables').count(), 0, 'no console shown');
  } finally {
    await context.close();
  }

  const named = await startServer(['--allowed-hosts', 'console.test']);
  stopLater.push(async () => assert.equal(await named.stop(), 0, named.log()));
  await createTable(new Client(named.url));
  const allowed = await openPage(`http://console.test:${new URL(named.url).port}/`);
  try {
    assert.equal(allowed.response.status(), 200);
    await tableRow(allowed.page).waitFor();  // its DynamoDB calls, with Origin console.test, went through
    assert.deepEqual(allowed.errors, []);
  } finally {
    await allowed.close();
  }
});

test('with --admin-token the console asks for the token once, then moves the clock', async () => {
  const locked = await startServer(['--admin-token', 'console-token']);
  stopLater.push(async () => assert.equal(await locked.stop(), 0, locked.log()));
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const prompts = [];
    page.on('dialog', async (dialog) => {
      prompts.push(dialog.message());
      await dialog.accept('console-token');
    });
    await page.goto(`http://localhost:${new URL(locked.url).port}/`);
    await page.getByRole('button', {name: '+1 hour'}).click();
    await page.getByRole('status').filter({hasText: 'Clock moved by 1h 0m'}).waitFor();
    assert.equal(prompts.length, 1, `one prompt, not ${prompts.length}`);
    assert.match(prompts[0], /--admin-token/);
    // The server moved its clock: the console sent the token.
    const clock = await (await fetch(`${locked.url}/_localdynamo/clock`,
                                     {headers: {Authorization: 'Bearer console-token'}})).json();
    assert.equal(clock.OffsetMillis, 3600 * 1000);
  } finally {
    await context.close();
  }
});
