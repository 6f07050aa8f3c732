#!/usr/bin/env python3
"""Summarises `go test -json` output: tests per package and per contract run,
full output of failures, and exits non-zero on any failure or skip (CI never
skips a suite). The one allowed skip: evaluation tests (TestEval*) over the
team's sample data, when that folder is absent."""
import collections
import json
import sys

events = [json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")]
counts = collections.defaultdict(lambda: collections.Counter())
output = collections.defaultdict(list)
build_failed = []
for e in events:
    pkg, test, action = e.get("Package", ""), e.get("Test"), e.get("Action")
    if action == "output":
        output[(pkg, test)].append(e.get("Output", ""))
    if action in ("pass", "fail", "skip"):
        if test:
            allowed = action == "skip" and test.split("/")[0].startswith("TestEval")
            counts[pkg]["skip (sample data absent)" if allowed else action] += 1
        elif action == "fail" and not counts[pkg]:
            build_failed.append(pkg)

failed = skipped = 0
for pkg in sorted(counts):
    c = counts[pkg]
    failed += c["fail"]
    skipped += c["skip"]
    extra = f"  eval skipped {c['skip (sample data absent)']}" if c["skip (sample data absent)"] else ""
    print(f"{pkg.removeprefix('github.com/lectern/lectern/') or '.':40s} pass {c['pass']:4d}  fail {c['fail']:3d}  skip {c['skip']:3d}{extra}")

# Contract suite runs (TestContract/<adapter>/<case>): cases passed per adapter.
runs = collections.Counter()
for e in events:
    parts = (e.get("Test") or "").split("/")
    if e.get("Action") == "pass" and len(parts) == 3 and parts[0] == "TestContract":
        port = e["Package"].removeprefix("github.com/lectern/lectern/shared/").split("/")[0]
        runs[(port, parts[1])] += 1
for (port, adapter), n in sorted(runs.items()):
    print(f"{port} contract suite on {adapter}: {n} cases passed")

for (pkg, test), lines in output.items():
    if test and any(l.startswith("--- FAIL") or l.startswith("    --- FAIL") for l in lines):
        print(f"\n--- output of failed {pkg} {test}:\n" + "".join(lines))
    if test and any("--- SKIP" in l for l in lines):
        print(f"\n--- skipped {pkg} {test}:\n" + "".join(lines))
for pkg in build_failed:
    print(f"\n--- {pkg} failed to build or run:\n" + "".join(output[(pkg, None)]))

total = sum(sum(c.values()) for c in counts.values())
print(f"\nGo tests: {total} run, {failed} failed, {skipped} skipped, {len(build_failed)} packages broken")
sys.exit(1 if failed or skipped or build_failed else 0)
