#!/usr/bin/env bash
# What the access profile (docs/profile.md), on by default, costs: the same
# build with it (ld-memory) and without it (--no-profile), interleaved round
# after round by bench/peers.py at 16 connections; ld-noprofile's ratio is
# its throughput over ld-memory's (1.03: the profile costs 3%). The servers
# run on one core and wrk on the other (--pin): unpinned, the scheduler's
# placement of wrk and the I/O threads moved single cells by up to 10%,
# more than the profile costs. Each operation runs on servers started for
# it (--fresh): on long-lived servers, PutItem on a table with a stream ran
# after a minute of other writes and came out 8-10% apart from fresh pairs.
# Needs what peers.py needs (wrk, taskset, build/localdynamo).
#   bench/profile_cost.sh [--seconds S] [--rounds N]
set -euo pipefail
cd "$(dirname "$0")/.."
exec bench/peers.py --only throughput --connections "${CONNECTIONS:-16}" \
  --variant "ld-noprofile=build/localdynamo --no-profile" --servers ld-noprofile,ld-memory \
  --pin --fresh --seconds 5 --rounds 4 "$@"
