#!/usr/bin/env bash
# Stream costs, measured in one run against an in-memory localdynamo:
#  - PutItem on a table with a NEW_AND_OLD_IMAGES stream, as a ratio to the
#    same PutItem on a table without one (interleaved A B A B A B);
#  - GetRecords throughput (records/s) reading 1,000-record pages.
# Needs wrk and a built build/localdynamo.
#   bench/streams.sh [seconds per case, default 5]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
build/localdynamo --in-memory --no-models --ttl-interval 0 --port "$port" >/dev/null &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null' EXIT
url="http://127.0.0.1:$port/"
for _ in $(seq 100); do curl -sf "$url" >/dev/null && break; sleep 0.05; done
call() {
  curl -sf "$url" -H "X-Amz-Target: $1" -H 'Content-Type: application/x-amz-json-1.0' \
    -H 'Authorization: AWS4-HMAC-SHA256 Credential=bench/20260101/us-east-1/dynamodb/aws4_request' \
    -d "$2"
}
table() {  # name [stream specification]
  call DynamoDB_20120810.CreateTable "{\"TableName\":\"$1\",\"BillingMode\":\"PAY_PER_REQUEST\",
    \"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}],
    \"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}]${2:+,$2}}" >/dev/null
}
table plain
table streamed '"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}'
rate() {  # requests/second of one wrk run
  wrk -t2 -c32 -d"${secs}s" -s bench/request.lua "$url" | awk '/Requests\/sec/ {print $2}'
}
item='{"pk":{"S":"user#{n}"},"name":{"S":"Ada Lovelace"},"age":{"N":"36"},"tags":{"SS":["math","poetry"]},"n":{"S":"{id}"}}'
put() {
  BENCH_TARGET=DynamoDB_20120810.PutItem BENCH_MOD=10000 \
    BENCH_BODY="{\"TableName\":\"$1\",\"Item\":$item}" rate
}
plain_rates=() streamed_rates=()
for round in 1 2 3; do
  plain_rates+=("$(put plain)")
  streamed_rates+=("$(put streamed)")
done
median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
plain=$(median "${plain_rates[@]}")
streamed=$(median "${streamed_rates[@]}")

arn=$(call DynamoDB_20120810.DescribeTable '{"TableName":"streamed"}' |
      python3 -c 'import json,sys; print(json.load(sys.stdin)["Table"]["LatestStreamArn"])')
shard=$(call DynamoDBStreams_20120810.DescribeStream "{\"StreamArn\":\"$arn\"}" |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["StreamDescription"]["Shards"][0]["ShardId"])')
iterator=$(call DynamoDBStreams_20120810.GetShardIterator \
  "{\"StreamArn\":\"$arn\",\"ShardId\":\"$shard\",\"ShardIteratorType\":\"TRIM_HORIZON\"}" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["ShardIterator"])')
pages=$(BENCH_TARGET=DynamoDBStreams_20120810.GetRecords \
        BENCH_BODY="{\"ShardIterator\":\"$iterator\",\"Limit\":1000}" rate)
records_per_page=$(call DynamoDBStreams_20120810.GetRecords "{\"ShardIterator\":\"$iterator\",\"Limit\":1000}" |
                   python3 -c 'import json,sys; print(len(json.load(sys.stdin)["Records"]))')

printf 'PutItem, no stream                 %9.0f/s  (runs: %s)\n' "$plain" "${plain_rates[*]}"
printf 'PutItem, NEW_AND_OLD_IMAGES stream %9.0f/s  (runs: %s)  ratio %.2f\n' "$streamed" \
  "${streamed_rates[*]}" "$(echo "$streamed / $plain" | bc -l)"
printf 'GetRecords, %d-record pages        %9.0f pages/s = %.0f records/s\n' "$records_per_page" \
  "$pages" "$(echo "$pages * $records_per_page" | bc -l)"
echo "RSS after: $(awk '/VmRSS/ {print $2}' /proc/$pid/status) kB"
