-- wrk script for bench/suites.py: the per-test table cycle, run with as many
-- wrk threads as connections (-tN -cN), so each thread is one test worker
-- with its own Lua state and its own sequence of requests:
--   CreateTable (pk S + sk S, a GSI on status), DescribeTable until ACTIVE,
--   five PutItems, a Query of the GSI, DeleteTable, DescribeTable until
--   ResourceNotFoundException; then again, under the next table name.
-- A wrong answer (any other status, or a Query that does not find its two
-- items) is counted as an error and the cycle starts over with a new table.
-- done() prints "CYCLES cycles=N errors=E describes=D seconds=S" for all threads.
local threads = {}
-- A run stopped mid-cycle leaves its table: each run names its own (CYCLE_RUN).
local run = os.getenv("CYCLE_RUN") or "0"
local headers = {
  ["Content-Type"] = "application/x-amz-json-1.0",
  ["X-Amz-Date"] = "20260101T000000Z",
  ["Authorization"] = "AWS4-HMAC-SHA256 Credential=bench/20260101/us-east-1/dynamodb/" ..
    "aws4_request, SignedHeaders=host;x-amz-date, Signature=0000",
}

setup = function(thread)
  thread:set("worker", #threads)
  table.insert(threads, thread)
end

local step, number, name = 1, 0, ""
cycles, errors, describes = 0, 0, 0

local function create_body()
  return '{"TableName":"' .. name .. '","BillingMode":"PAY_PER_REQUEST",' ..
    '"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},' ..
    '{"AttributeName":"sk","KeyType":"RANGE"}],' ..
    '"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},' ..
    '{"AttributeName":"sk","AttributeType":"S"},' ..
    '{"AttributeName":"status","AttributeType":"S"}],' ..
    '"GlobalSecondaryIndexes":[{"IndexName":"byStatus","KeySchema":' ..
    '[{"AttributeName":"status","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],' ..
    '"Projection":{"ProjectionType":"ALL"}}]}'
end

local function put_body(i)
  return string.format('{"TableName":"%s","Item":{"pk":{"S":"order#%d"},' ..
    '"sk":{"S":"2026-12-0%d"},"status":{"S":"%s"},"total":{"N":"%d"}}}',
    name, i, i + 1, i % 2 == 1 and "open" or "shipped", 10 * i)
end

local query_body = function()
  return '{"TableName":"' .. name .. '","IndexName":"byStatus",' ..
    '"KeyConditionExpression":"#s = :s","ExpressionAttributeNames":{"#s":"status"},' ..
    '"ExpressionAttributeValues":{":s":{"S":"open"}}}'
end

-- Steps: 1 CreateTable, 2 DescribeTable (ACTIVE?), 3-7 PutItem, 8 Query,
-- 9 DeleteTable, 10 DescribeTable (gone?).
local function send(target, body)
  headers["X-Amz-Target"] = "DynamoDB_20120810." .. target
  return wrk.format("POST", "/", headers, body)
end

request = function()
  if step == 1 then
    number = number + 1
    name = string.format("cycle_%s_%d_%d", run, worker, number)
    return send("CreateTable", create_body())
  elseif step == 2 or step == 10 then
    describes = describes + 1
    return send("DescribeTable", '{"TableName":"' .. name .. '"}')
  elseif step <= 7 then
    return send("PutItem", put_body(step - 3))
  elseif step == 8 then
    return send("Query", query_body())
  end
  return send("DeleteTable", '{"TableName":"' .. name .. '"}')
end

local function fail(status, body)
  errors = errors + 1
  if errors <= 3 then
    io.stderr:write(string.format("step %d: status %d: %s\n", step, status, body))
  end
  step = 1
end

response = function(status, _, body)
  if step == 2 then
    if status ~= 200 then return fail(status, body) end
    if body:find('"TableStatus":"ACTIVE"', 1, true) then step = 3 end
  elseif step == 10 then
    if status == 400 and body:find("ResourceNotFoundException", 1, true) then
      cycles = cycles + 1
      step = 1
    elseif status ~= 200 then
      fail(status, body)
    end
  elseif status ~= 200 or (step == 8 and not body:find('"Count":2', 1, true)) then
    fail(status, body)
  else
    step = step + 1
  end
end

done = function(summary)
  local c, e, d = 0, 0, 0
  for _, thread in ipairs(threads) do
    c = c + thread:get("cycles")
    e = e + thread:get("errors")
    d = d + thread:get("describes")
  end
  io.write(string.format("CYCLES cycles=%d errors=%d describes=%d seconds=%.3f\n",
                         c, e, d, summary.duration / 1e6))
end
