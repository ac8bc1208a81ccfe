#!/usr/bin/env bash
# Throughput of PutItem and GetItem against an in-memory localdynamo, each
# reported as a ratio to the health check (GET /: HTTP alone) measured in the
# same run, so the numbers compare across machines. Needs wrk (apt-get
# install wrk) and a built build/localdynamo.
#   bench/run.sh [seconds per case, default 5]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
build/localdynamo --in-memory --port "$port" >/dev/null &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null' EXIT
url="http://127.0.0.1:$port/"
for _ in $(seq 100); do curl -sf "$url" >/dev/null && break; sleep 0.05; done
call() {
  curl -sf "$url" -H "X-Amz-Target: DynamoDB_20120810.$1" \
    -H 'Content-Type: application/x-amz-json-1.0' \
    -H 'Authorization: AWS4-HMAC-SHA256 Credential=bench/20260101/us-east-1/dynamodb/aws4_request' \
    -d "$2" >/dev/null
}
call CreateTable '{"TableName":"bench","BillingMode":"PAY_PER_REQUEST","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}]}'

rate() {  # prints requests/second of a wrk run
  wrk -t2 -c32 -d"${secs}s" "$@" "$url" | awk '/Requests\/sec/ {print $2}'
}
item='{"pk":{"S":"user#{n}"},"name":{"S":"Ada Lovelace"},"age":{"N":"36"},"tags":{"SS":["math","poetry"]}}'
health=$(rate)
put=$(BENCH_TARGET=DynamoDB_20120810.PutItem BENCH_BODY="{\"TableName\":\"bench\",\"Item\":$item}" \
      rate -s bench/request.lua)
get=$(BENCH_TARGET=DynamoDB_20120810.GetItem BENCH_BODY='{"TableName":"bench","Key":{"pk":{"S":"user#{n}"}}}' \
      rate -s bench/request.lua)
rss=$(awk '/VmRSS/ {print $2}' /proc/$pid/status)
printf 'case        req/s     ratio to health check\n'
printf 'health   %9.0f     1.00\n' "$health"
printf 'PutItem  %9.0f     %.2f\n' "$put" "$(echo "$put / $health" | bc -l)"
printf 'GetItem  %9.0f     %.2f\n' "$get" "$(echo "$get / $health" | bc -l)"
printf 'RSS after load: %s kB\n' "$rss"
