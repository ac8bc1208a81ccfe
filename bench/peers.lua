-- wrk script for bench/peers.py: one DynamoDB request, chosen by the
-- environment, with the headers every peer accepts (dynalite insists on
-- X-Amz-Date), and a done() that prints what the table needs.
--   BENCH_TARGET  e.g. DynamoDB_20120810.GetItem ("" sends GET /)
--   BENCH_BODY    the JSON body; {n} is the request counter modulo BENCH_MOD
--                 (default 1000), {id} is unique within the run, each {r}
--                 becomes its own 104 random hex digits (incompressible data)
--   BENCH_TOTAL   if set (bulk loading with BatchWriteItem): send batches
--                 until this many are acknowledged (at most one per connection
--                 more), then only ListTables; print "BATCHES n" every 1,000
--                 acknowledged batches and LOADED at the last
-- done() prints one line: "BENCH requests=N errors=E seconds=S p50=.. p99=..
-- p999=.." (latencies in microseconds; done() runs in wrk's main Lua state, so
-- it sees only wrk's summary, not this thread's counters).
-- An error is a non-2xx answer, a timeout, or a
-- broken connection: errors are never counted as throughput.
local target = os.getenv("BENCH_TARGET") or ""
local body = os.getenv("BENCH_BODY") or ""
local mod = tonumber(os.getenv("BENCH_MOD") or "1000")
local total = tonumber(os.getenv("BENCH_TOTAL") or "0")
local counter = 0
local batches = 0
local bad = 0
local idle_headers = {}
local has_random = body:find("{r}", 1, true) ~= nil

local function random_hex()
  local parts = {}
  for i = 1, 13 do parts[i] = string.format("%08x", math.random(0, 0x7fffffff)) end
  return table.concat(parts)
end

if target ~= "" then
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/x-amz-json-1.0"
  wrk.headers["X-Amz-Target"] = target
  wrk.headers["X-Amz-Date"] = "20260101T000000Z"
  wrk.headers["Authorization"] =
    "AWS4-HMAC-SHA256 Credential=bench/20260101/us-east-1/dynamodb/aws4_request, " ..
    "SignedHeaders=host;x-amz-date, Signature=0000"
  for name, value in pairs(wrk.headers) do idle_headers[name] = value end
  idle_headers["X-Amz-Target"] = "DynamoDB_20120810.ListTables"
end

request = function()
  if target == "" then return wrk.format("GET", "/") end
  counter = counter + 1
  if total > 0 and batches >= total then
    return wrk.format(nil, nil, idle_headers, "{}")
  end
  local b = body:gsub("{n}", tostring(counter % mod)):gsub("{id}", tostring(counter))
  if has_random then b = b:gsub("{r}", random_hex) end
  return wrk.format(nil, nil, nil, b)
end

response = function(status, headers, response_body)
  if status ~= 200 then
    bad = bad + 1
    if bad <= 3 then io.stderr:write("status " .. status .. ": " .. response_body .. "\n") end
  end
  if total > 0 and status == 200 and response_body:find("UnprocessedItems", 1, true) then
    batches = batches + 1
    if batches % 1000 == 0 then
      io.write("BATCHES " .. batches .. "\n")
      io.flush()
    end
    if batches == total then
      io.write("LOADED errors=" .. bad .. "\n")
      io.flush()
    end
  end
end

done = function(summary, latency, requests)
  local e = summary.errors
  local errors = e.connect + e.read + e.write + e.status + e.timeout
  io.write(string.format(
    "BENCH requests=%d errors=%d seconds=%.3f p50=%d p99=%d p999=%d\n",
    summary.requests, errors, summary.duration / 1e6,
    latency:percentile(50), latency:percentile(99), latency:percentile(99.9)))
end
