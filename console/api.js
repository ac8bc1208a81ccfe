// The console's only ways to the server: the DynamoDB API, the Streams API
// (both POST / with X-Amz-Target, as every SDK sends them) and the admin API
// under /_localdynamo/. No private back door: what the console shows is
// what any client sees.

// The server accepts any signature; the region names the database (and
// the access key too with --per-key-databases).
export const credentials = {
  accessKey: localStorage.getItem('ld.accessKey') || 'console',
  region: localStorage.getItem('ld.region') || 'us-east-1',
};

export function setCredentials(accessKey, region) {
  credentials.accessKey = accessKey || 'console';
  credentials.region = region || 'us-east-1';
  localStorage.setItem('ld.accessKey', credentials.accessKey);
  localStorage.setItem('ld.region', credentials.region);
}

function authorization(service) {
  return `AWS4-HMAC-SHA256 Credential=${credentials.accessKey}/20260101/${credentials.region}/` +
         `${service}/aws4_request, SignedHeaders=host;x-amz-target, Signature=0`;
}

// An error answer: `type` is DynamoDB's short name (after the '#').
export class ApiError extends Error {
  constructor(type, message, body) {
    super(message || type);
    this.type = (type || 'Error').split('#').pop();
    this.body = body;
  }
}

async function post(target, service, body) {
  const response = await fetch('/', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-amz-json-1.0',
      'X-Amz-Target': target,
      'Authorization': authorization(service),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const data = text ? JSON.parse(text) : {};
  if (!response.ok) throw new ApiError(data.__type, data.message ?? data.Message, data);
  return data;
}

export const ddb = (operation, body = {}) =>
  post(`DynamoDB_20120810.${operation}`, 'dynamodb', body);

export const streams = (operation, body = {}) =>
  post(`DynamoDBStreams_20120810.${operation}`, 'dynamodb', body);

// A server started with --admin-token answers 401 until the console sends
// the token: asked for once (one prompt however many calls are waiting),
// kept for this tab only.
const tokenKey = 'localdynamo-admin-token';
let tokenAsked = null;
function askForToken() {
  tokenAsked ??= Promise.resolve().then(() => {
    const token = window.prompt('This localdynamo was started with --admin-token. Admin token:');
    if (token) sessionStorage.setItem(tokenKey, token);
    tokenAsked = null;
    return Boolean(token);
  });
  return tokenAsked;
}

function adminFetch(path, init) {
  const token = sessionStorage.getItem(tokenKey);
  const headers = token ? {Authorization: `Bearer ${token}`} : {};
  return fetch(`/_localdynamo/${path}`, {...init, headers});
}

// GET when `body` is undefined, POST otherwise (or `method`, e.g. DELETE).
export async function admin(path, body, method) {
  const init = body === undefined ? {method: method ?? 'GET'}
                                  : {method: method ?? 'POST', body: JSON.stringify(body)};
  let response = await adminFetch(path, init);
  if (response.status === 401 && await askForToken()) response = await adminFetch(path, init);
  const text = await response.text();
  const data = text ? JSON.parse(text) : {};
  if (!response.ok) throw new ApiError(data.__type, data.message, data);
  return data;
}

// Every table name, following ListTables' pages.
export async function listTableNames() {
  const names = [];
  let start;
  do {
    const page = await ddb('ListTables', start ? {ExclusiveStartTableName: start} : {});
    names.push(...page.TableNames);
    start = page.LastEvaluatedTableName;
  } while (start);
  return names;
}

// The table's description plus its TTL attribute (null when TTL is off).
export async function describeTable(name) {
  const [{Table}, ttl] = await Promise.all([
    ddb('DescribeTable', {TableName: name}),
    ddb('DescribeTimeToLive', {TableName: name}).catch(() => ({})),
  ]);
  const status = ttl.TimeToLiveDescription?.TimeToLiveStatus;
  Table.ttlAttribute = status === 'ENABLED' || status === 'ENABLING'
      ? ttl.TimeToLiveDescription.AttributeName : null;
  return Table;
}

// The namespace, the server's name for the database, that the header's
// access key and region reach (what the admin API's Namespace members take).
export async function currentNamespace() {
  const query = `accessKey=${encodeURIComponent(credentials.accessKey)}` +
                `&region=${encodeURIComponent(credentials.region)}`;
  return (await admin(`namespace?${query}`)).Namespace;
}
