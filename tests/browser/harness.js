// Starts the real localdynamo binary on a free port and Debian's chromium
// through playwright-core, and talks to the server from Node as any client
// would (the DynamoDB and admin APIs over HTTP).
import {spawn} from 'node:child_process';
import {mkdirSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {chromium} from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const binary = process.env.LOCALDYNAMO_BIN ?? path.join(here, '../../build/localdynamo');
export const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
// Where screenshots of the main views go (unset: none are taken).
export const screenshotDir = process.env.LOCALDYNAMO_SCREENSHOTS
    ? path.resolve(process.env.LOCALDYNAMO_SCREENSHOTS) : null;

// Starts the server; resolves to {url, stop()}. Expired items are swept only
// when a test asks, unless `extraArgs` sets --ttl-interval.
export function startServer(extraArgs = []) {
  const sweep = extraArgs.includes('--ttl-interval') ? [] : ['--ttl-interval', '0'];
  // No preloaded models: the tests build their own tables and compare table lists.
  const child = spawn(binary, ['--in-memory', '--no-models', '--port', '0', ...sweep, ...extraArgs],
                      {stdio: ['ignore', 'pipe', 'pipe']});
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start line:\n${log}`)), 10000);
    child.stderr.on('data', (chunk) => { log += chunk; });
    child.stdout.on('data', (chunk) => {
      log += chunk;
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(log);
      if (match) {
        clearTimeout(timer);
        resolve({url: match[1], log: () => log, stop: () => new Promise((done) => {
          child.once('exit', (code) => done(code));
          child.kill('SIGTERM');
        })});
      }
    });
    child.once('exit', (code) => reject(new Error(`localdynamo exited with ${code}:\n${log}`)));
  });
}

// `args`: more chromium switches (security.test.js maps test host names
// with --host-resolver-rules).
export function launchBrowser(args = []) {
  // Root (as in CI containers) cannot use chromium's sandbox, and a
  // container's small /dev/shm would crash its renderers.
  return chromium.launch({executablePath: chromiumPath,
                          args: ['--no-sandbox', '--disable-dev-shm-usage', ...args]});
}

export class Client {
  constructor(url) { this.url = url; }

  // `region` names the database, as a request's signature does.
  async ddb(operation, body, region = 'us-east-1') {
    const response = await fetch(`${this.url}/`, {method: 'POST', body: JSON.stringify(body), headers: {
      'Content-Type': 'application/x-amz-json-1.0',
      'X-Amz-Target': `DynamoDB_20120810.${operation}`,
      'Authorization': `AWS4-HMAC-SHA256 Credential=tests/20260101/${region}/dynamodb/aws4_request, ` +
                       'SignedHeaders=host, Signature=0'}});
    const data = await response.json();
    if (!response.ok) throw new Error(`${operation}: ${data.__type} ${data.message}`);
    return data;
  }

  async admin(pathName, body) {
    const response = await fetch(`${this.url}/_localdynamo/${pathName}`, body === undefined
        ? {} : {method: 'POST', body: JSON.stringify(body)});
    return response.json();
  }

  // Writes `items` with BatchWriteItem, `parallel` batches of 25 at a time.
  async load(tableName, items, parallel = 8) {
    const batches = [];
    for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
    const next = async () => {
      for (let batch; (batch = batches.shift());) {
        await this.ddb('BatchWriteItem', {RequestItems: {
          [tableName]: batch.map((Item) => ({PutRequest: {Item}}))}});
      }
    };
    await Promise.all(Array.from({length: parallel}, next));
  }
}

export async function screenshot(page, name) {
  if (!screenshotDir) return;
  mkdirSync(screenshotDir, {recursive: true});
  await page.screenshot({path: path.join(screenshotDir, `${name}.png`)});
}
