-- wrk script: one DynamoDB request, chosen by the environment.
--   BENCH_TARGET  e.g. DynamoDB_20120810.GetItem
--   BENCH_BODY    the JSON body
-- Keys vary per request when BENCH_BODY contains {n}.
local target = os.getenv("BENCH_TARGET")
local body = os.getenv("BENCH_BODY")
local counter = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-amz-json-1.0"
wrk.headers["X-Amz-Target"] = target
wrk.headers["Authorization"] =
  "AWS4-HMAC-SHA256 Credential=bench/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0"
request = function()
  counter = counter + 1
  local b = body:gsub("{n}", tostring(counter % 1000))
  return wrk.format(nil, nil, nil, b)
end
response = function(status, headers, body)
  if status ~= 200 then error("unexpected status " .. status .. ": " .. body) end
end
