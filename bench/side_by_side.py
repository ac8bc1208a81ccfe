#!/usr/bin/env python3
"""Two localdynamo command lines compared at the same moment, not one after
the other.

peers.py and profile_counted.py compare servers one run after another; on a
machine whose neighbours move one run's throughput by ±20%, even pinned, a
difference of 2-4% takes dozens of rounds to tell from noise, and a count
under callgrind leaves out what its cache model does not see. Here both
servers run at once, pinned to the same core, each driven by its own wrk on
the other core: whatever slows the machine slows both alike, and since both
are busy all the time the scheduler gives each half of the core, so their
throughput ratio is the inverse of the CPU each spends per request. The
same build against itself (--control) moves a round's ratio by 1-2%.

Each round starts a fresh pair (the order of starting alternates), loads
peers.py's tables and items into both, warms both, then runs the two wrk
side by side. The variant's throughput over the baseline's is reported per
round, with the median, mean and standard deviation. Keep rounds at 5 s or
more: the two wrk start a moment apart, and in rounds of 1 s the control's
standard deviation was 12%, against 1-2% at 5 s.

  bench/side_by_side.py --variant=--no-profile              what the profile costs
  bench/side_by_side.py --baseline="--data-dir {dir}"       in memory (variant) against on disk
  bench/side_by_side.py --control                           the method's own noise
  bench/side_by_side.py --baseline-binary /tmp/before       a change, before against after

ARGS are the server's own options after --port; "{dir}" becomes a fresh data
directory. Without --data-dir in ARGS the server runs --in-memory.
Needs what peers.py needs (wrk, taskset, build/localdynamo).
"""
import argparse
import json
import os
import shlex
import statistics
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402  (the workloads, the server runner and wrk's driver)


class Server(peers.Server):
    """One side of the pair: its executable and its options."""

    def __init__(self, name, binary, options):
        super().__init__(name, "localdynamo")
        self.binary, self.options = binary, options

    def command(self):
        options = [option.replace("{dir}", os.path.join(self.dir, "data")) for option in self.options]
        store = [] if "--data-dir" in options else ["--in-memory"]
        return [self.binary, "--port", str(self.port)] + store + options  # start() pins it


def one_round(sides, operation, seconds, connections, first):
    """Both sides' wrk results for one fresh pair, `first` started first."""
    label, target, body, mod = operation
    order = sides if first == 0 else sides[::-1]
    servers = [Server(name, binary, options) for name, binary, options in order]
    try:
        for server in servers:
            server.start()
            unsupported = peers.prepare(server)
            if label in unsupported:
                raise RuntimeError("{} refuses {}: {}".format(server.name, label, unsupported[label]))
        for server in servers:  # every key and shape seen once
            peers.wrk(server.port, 1, connections, target, body, mod)
        results = {}

        def drive(server):
            results[server.name] = peers.wrk(server.port, seconds, connections, target, body, mod)

        threads = [threading.Thread(target=drive, args=(server,)) for server in servers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        for server in servers:
            server.cleanup()
    for name, result in results.items():
        if result["errors"]:
            raise RuntimeError("{}: {} errors under {}".format(name, result["errors"], label))
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", default="", metavar="ARGS", help="the baseline's options")
    parser.add_argument("--variant", default="", metavar="ARGS", help="the variant's options")
    built = os.path.join(peers.ROOT, "build", "localdynamo")
    parser.add_argument("--baseline-binary", default=built, metavar="PATH",
                        help="the baseline's executable (default build/localdynamo)")
    parser.add_argument("--variant-binary", default=built, metavar="PATH",
                        help="the variant's executable (default build/localdynamo)")
    parser.add_argument("--control", action="store_true",
                        help="the variant is the baseline: the method's own noise")
    parser.add_argument("--operation", action="append", metavar="LABEL",
                        choices=[op[0] for op in peers.OPS],
                        help="only this operation of peers.py's (repeatable)")
    parser.add_argument("--rounds", type=int, default=8, help="fresh pairs per operation (default 8)")
    parser.add_argument("--seconds", type=int, default=5, help="per round (default 5)")
    parser.add_argument("--connections", type=int, default=8,
                        help="per server (default 8: 16 on the machine's one server core)")
    args = parser.parse_args()
    peers.PIN_SERVERS, peers.PIN_WRK = ["taskset", "-c", "0"], ["taskset", "-c", "1"]
    variant = args.baseline if args.control else args.variant
    variant_binary = args.baseline_binary if args.control else args.variant_binary
    sides = [("baseline", args.baseline_binary, shlex.split(args.baseline)),
             ("variant", variant_binary, shlex.split(variant))]
    print("baseline: {} {!r}; variant: {} {!r}; {} rounds of {} s, {} connections each".format(
        args.baseline_binary, args.baseline, variant_binary, variant, args.rounds, args.seconds,
        args.connections))
    print("| operation | variant ÷ baseline, median | mean | sd | range | baseline ops/s, median |")
    print("|---|---|---|---|---|---|")
    for label, target, body, mod in peers.OPS:
        if args.operation and label not in args.operation:
            continue
        case = (label, target, json.dumps(body), mod)
        ratios, rates = [], []
        for round_number in range(args.rounds):
            results = one_round(sides, case, args.seconds, args.connections, round_number % 2)
            ratios.append(results["variant"]["rate"] / results["baseline"]["rate"])
            rates.append(results["baseline"]["rate"])
        print("| {} | {:.3f} | {:.3f} | {:.3f} | {:.3f}–{:.3f} | {:,.0f} |".format(
            label, statistics.median(ratios), statistics.mean(ratios),
            statistics.stdev(ratios) if len(ratios) > 1 else 0.0, min(ratios), max(ratios),
            statistics.median(rates)), flush=True)


if __name__ == "__main__":
    main()
