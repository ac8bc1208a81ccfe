// The few requests this package sends to localdynamo, over node:http alone
// (no AWS SDK, no fetch): DynamoDB operations as one access key, and the
// admin API (/_localdynamo/...). CommonJS, because Jest's sandbox loads the
// per-file hooks with require().
"use strict";

const http = require("node:http");

// One JSON request; resolves to { status, body } with body parsed.
function request(endpoint, method, pathname, headers, body) {
  const url = new URL(pathname, endpoint);
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method,
      headers: { ...headers, ...(payload ? { "Content-Length": payload.length } : {}) },
    }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let parsed = text;
        try { parsed = text ? JSON.parse(text) : {}; } catch { /* not JSON: keep the text */ }
        resolve({ status: res.statusCode, body: parsed });
      });
    });
    req.on("error", reject);
    if (payload) req.write(payload);
    req.end();
  });
}

function failure(what, { status, body }) {
  const type = body && body.__type ? String(body.__type).split("#").pop() + ": " : "";
  const message = body && (body.message || body.Message) ? body.message || body.Message
                                                         : JSON.stringify(body);
  const error = new Error(`localdynamo-test: ${what} failed (${status}) ${type}${message}`);
  error.status = status;
  error.type = body && body.__type;
  return error;
}

// A DynamoDB operation as `accessKeyId` in `region`. localdynamo does not
// check signatures unless told to, and with --per-key-databases it picks the
// database from the credential scope of the Authorization header, so that
// header is all a request needs to name its database.
async function dynamodb(endpoint, { accessKeyId, region }, operation, input) {
  const date = new Date().toISOString().slice(0, 10).replace(/-/g, "");
  const answer = await request(endpoint, "POST", "/", {
    "Content-Type": "application/x-amz-json-1.0",
    "X-Amz-Target": `DynamoDB_20120810.${operation}`,
    Authorization: `AWS4-HMAC-SHA256 Credential=${accessKeyId}/${date}/${region}/dynamodb/aws4_request, ` +
                   "SignedHeaders=host;x-amz-target, Signature=0",
  }, input);
  if (answer.status !== 200) throw failure(operation, answer);
  return answer.body;
}

// The admin token a server started with --admin-token (or
// LOCALDYNAMO_ADMIN_TOKEN, which a server this package starts inherits)
// wants on every admin call.
function adminHeaders() {
  const token = process.env.LOCALDYNAMO_ADMIN_TOKEN;
  return token ? { Authorization: `Bearer ${token}` } : {};
}

// An admin request: GET/DELETE without a body, POST with one.
async function admin(endpoint, method, pathname, body) {
  const answer = await request(endpoint, method, `/_localdynamo/${pathname}`,
                               body === undefined ? adminHeaders()
                                                  : { ...adminHeaders(), "Content-Type": "application/json" },
                               body);
  if (answer.status !== 200) throw failure(`${method} /_localdynamo/${pathname}`, answer);
  return answer.body;
}

module.exports = { request, dynamodb, admin };
