#!/usr/bin/env bash
# What the access profile (docs/profile.md), on by default, costs: the same
# build with it (the baseline) and without it (--no-profile, the variant),
# both running at the same moment on one core, each driven by its own wrk
# on the other (bench/side_by_side.py). The variant's throughput over the
# baseline's is the cost: 1.03 means the profile costs 3%. Run one after
# the other (peers.py --pin --fresh, as this script did before), one
# round's ratio moved by ±15-20% on a busy machine; side by side the same
# build against itself moves by 1-2%.
#   bench/profile_cost.sh [--rounds N] [--seconds S] [--operation LABEL]...
set -euo pipefail
cd "$(dirname "$0")/.."
exec bench/side_by_side.py --variant=--no-profile "$@"
