-- wrk script: one DynamoDB request, chosen by the environment.
--   BENCH_TARGET  e.g. DynamoDB_20120810.GetItem
--   BENCH_BODY    the JSON body
--   BENCH_MOD     {n} cycles through 0 .. BENCH_MOD-1 (default 1000)
--   BENCH_PREFIX  prepended to {id} (default "")
-- In BENCH_BODY, {n} is the request counter modulo BENCH_MOD and {id} is
-- unique across threads and runs with distinct BENCH_PREFIXes (for loading).
local target = os.getenv("BENCH_TARGET")
local body = os.getenv("BENCH_BODY")
local mod = tonumber(os.getenv("BENCH_MOD") or "1000")
local prefix = os.getenv("BENCH_PREFIX") or ""
local counter = 0
local threads = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-amz-json-1.0"
wrk.headers["X-Amz-Target"] = target
wrk.headers["Authorization"] =
  "AWS4-HMAC-SHA256 Credential=bench/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0"
setup = function(thread)
  thread:set("tid", threads)
  threads = threads + 1
end
request = function()
  counter = counter + 1
  local id = prefix .. tostring(tid or 0) .. "-" .. tostring(counter)
  local b = body:gsub("{n}", tostring(counter % mod)):gsub("{id}", id)
  return wrk.format(nil, nil, nil, b)
end
response = function(status, headers, body)
  if status ~= 200 then error("unexpected status " .. status .. ": " .. body) end
end
