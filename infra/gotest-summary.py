#!/usr/bin/env python3
"""The Go test gate: reads `go test -json` output, prints tests per package
and per contract suite, the output of everything that went wrong, and exits
non-zero unless the run was whole and green.

A run fails the gate when go test exited non-zero (--go-exit), a package
failed (also after some of its tests passed: TestMain exiting non-zero, a
failure after the last test), a package never finished, a package's output
shows a panic, a fatal error, a data race, a timeout or a build/setup failure,
a test failed, a test started and never ended (a panic in a goroutine,
-timeout, os.Exit), a test skipped without an entry in the allowlist, fewer
tests ran than --min-tests, no package or no test ran at all, or a contract
suite passed fewer cases than infra/gate.json expects of it. --subset (for
ad-hoc partial runs, never make test) checks only the contract suites that
ran.

    gotest-summary.py [--gate infra/gate.json] [--min-tests N] [--subset]
                      [--go-exit CODE] GO-TEST.json

judge() is the gate as one pure function (events in, verdict out);
infra/gatetest tests it on real go test runs of broken fixture packages.
"""
import argparse
import collections
import dataclasses
import json
import os
import re
import sys

MODULE = "github.com/lectern/lectern/"
UNFINISHED = "did not finish (panic, timeout or exit)"

# Lines a healthy test binary never prints at the start of a line; each names
# why its package is broken.
BROKEN_OUTPUT = [
    (re.compile(r"^panic: test timed out"), "timed out (-timeout)"),
    (re.compile(r"^\*\*\* Test killed"), "killed by go test (ran too long)"),
    (re.compile(r"^panic: "), "panicked"),
    (re.compile(r"^fatal error: "), "fatal runtime error"),
    (re.compile(r"^WARNING: DATA RACE"), "data race"),
    (re.compile(r"\[build failed\]"), "build failed"),
    (re.compile(r"\[setup failed\]"), "setup failed"),
]
# Test framing lines: a test whose output holds nothing else failed or did not
# finish only because a subtest did, and its output is not worth printing.
FRAMING = re.compile(r"^\s*(=== (RUN|PAUSE|CONT|NAME)|--- (PASS|FAIL|SKIP):)")


@dataclasses.dataclass
class Verdict:
    """What judge() found. problems is empty exactly when the gate passes."""

    packages: dict  # package -> Counter of pass, fail, skip, allowed skip, unfinished
    contract: dict  # (port, adapter) -> (cases passed, cases expected or None)
    problems: list  # one line each
    details: list  # (title, output) to show: failures, unfinished, skips, broken packages
    run: int = 0
    failed: int = 0
    skipped: int = 0
    unfinished: int = 0
    broken: int = 0

    @property
    def ok(self):
        return not self.problems

    def closing_line(self):
        return (f"Go tests: {self.run} run, {self.failed} failed, {self.skipped} skipped, "
                f"{self.unfinished} unfinished, {self.broken} packages broken")


def short(pkg):
    return pkg.removeprefix(MODULE) or "."


def telling(lines):
    """Whether a test's output says more than that it ran and ended."""
    return any(not FRAMING.match(line) for line in lines)


def broken_output(lines):
    """Why these output lines say their test binary broke (first pattern a line matches)."""
    reasons = []
    for line in lines:
        why = next((why for pattern, why in BROKEN_OUTPUT if pattern.search(line)), None)
        if why and why not in reasons:
            reasons.append(why)
    return reasons


def allowed_skip(test, gate, env):
    """The allowlist entry that lets this test skip, or None."""
    top = test.split("/", 1)[0]  # a listed test's subtests skip with it
    for entry in gate.get("allowed_skips", []):
        if top in entry["tests"] and not env.get(entry.get("when_unset", ""), ""):
            return entry
    return None


def judge(events, gate, *, min_tests=1, subset=False, go_exit=0, env=None):
    """Judges one `go test -json` run (its events, decoded) against the gate
    (infra/gate.json, decoded). env is the environment the allowlist's
    conditions are read from (os.environ when None)."""
    env = os.environ if env is None else env
    started, ended = set(), {}  # package -> its own pass/fail/skip
    runs, ends = collections.Counter(), collections.defaultdict(list)  # (package, test)
    output = collections.defaultdict(list)  # (package, test or None) -> lines
    build_output = collections.defaultdict(list)  # import path -> lines
    build_failed = []  # import paths
    order = []  # (package, test) in the order tests started
    for e in events:
        pkg, test, action = e.get("Package", ""), e.get("Test"), e.get("Action")
        if action == "build-output":
            build_output[e.get("ImportPath", "")].append(e.get("Output", ""))
        elif action == "build-fail":
            build_failed.append(e.get("ImportPath", ""))
        elif action == "start":
            started.add(pkg)
        elif action == "output":
            output[(pkg, test)].append(e.get("Output", ""))
        elif action == "run":
            if not runs[(pkg, test)]:
                order.append((pkg, test))
            runs[(pkg, test)] += 1
        elif action in ("pass", "fail", "skip"):
            if test:
                ends[(pkg, test)].append(action)
            else:
                ended[pkg] = e
                started.add(pkg)

    v = Verdict(packages={}, contract={}, problems=[], details=[])
    if go_exit:
        v.problems.append(f"go test exited {go_exit}")
    if not started:
        v.problems.append("no package ran: go could not list the packages (see its error above)")

    # Tests: every one that ran ends in pass, fail or skip; a skip needs an allowlist entry.
    for key in order:
        pkg, test = key
        c = v.packages.setdefault(pkg, collections.Counter())
        lines = output[key]
        v.run += runs[key]
        for action in ends[key]:
            if action == "skip":
                v.skipped += 1
                entry = allowed_skip(test, gate, env)
                if entry:
                    c["allowed skip"] += 1
                    continue
                v.problems.append(f"{short(pkg)} {test} skipped, and no entry in the gate's allowlist allows it")
                v.details.append((f"skipped (not allowed) {short(pkg)} {test}", lines))
            elif action == "fail":
                v.failed += 1
                if telling(lines):
                    v.details.append((f"failed {short(pkg)} {test}", lines))
            c[action] += 1
        if len(ends[key]) < runs[key]:
            n = runs[key] - len(ends[key])
            v.unfinished += n
            c["unfinished"] += n
            v.problems.append(f"{short(pkg)} {test} {UNFINISHED}")
            if telling(lines):
                v.details.append((f"{short(pkg)} {test} {UNFINISHED}", lines))
    if v.failed:
        v.problems.append(f"failed tests: {v.failed} (their output is above)")

    # Packages: a failure that no failed test explains, a package that never
    # ended, or output only a broken binary prints.
    for pkg in sorted(started):
        end = ended.get(pkg, {})
        lines = [line for key, out in output.items() if key[0] == pkg for line in out]
        reasons = broken_output(lines)
        if end.get("FailedBuild") and "build failed" not in reasons:
            reasons.append("build failed")
        if not end:
            reasons.append("never finished")
        elif end.get("Action") == "fail" and not reasons and not v.packages.get(pkg, {}).get("fail"):
            reasons.append("failed, and no failed test says why (TestMain or os.Exit with a non-zero code)")
        if reasons:
            v.broken += 1
            v.packages.setdefault(pkg, collections.Counter())
            v.problems.append(f"{short(pkg)}: package broken: {', '.join(reasons)}")
            shown = build_output.get(end.get("FailedBuild", ""), []) + output[(pkg, None)]
            v.details.append((f"{short(pkg)} broken ({', '.join(reasons)}); its package output", shown))
    for path in build_failed:
        pkg = path.split(" ")[0]
        if pkg not in started:
            v.broken += 1
            v.problems.append(f"{short(pkg)}: build failed")
            v.details.append((f"{short(pkg)} build failed", build_output[path]))

    if not v.run:
        v.problems.append("no test ran")
    elif v.run < min_tests:
        v.problems.append(f"only {v.run} tests ran; the floor is {min_tests} (--min-tests)")

    # Contract suites: TestContract/<adapter>/<case> passed, per port and adapter.
    passed, present = collections.Counter(), set()
    for (pkg, test), acts in ends.items():
        parts = test.split("/")
        if len(parts) == 3 and parts[0] == "TestContract":
            port = short(pkg).removeprefix("shared/").split("/")[0]
            present.add((port, parts[1]))
            passed[(port, parts[1])] += acts.count("pass")
    expected = {(port, adapter): n for port, adapters in gate.get("contract_cases", {}).items()
                for adapter, n in adapters.items()}
    for key in sorted(present if subset else set(expected) | present):
        want = expected.get(key)
        v.contract[key] = (passed[key], want)
        if want is None:
            v.problems.append(f"{key[0]} contract suite on {key[1]} is not in the gate's contract_cases; add its case count")
        elif passed[key] < want:
            v.problems.append(f"{key[0]} contract suite on {key[1]}: {passed[key]} of {want} cases passed")
    return v


def report(v):
    """The verdict as printed lines."""
    lines = []
    for pkg in sorted(v.packages):
        c = v.packages[pkg]
        extra = "".join(f"  {k} {c[k]}" for k in ("allowed skip", "unfinished") if c[k])
        lines.append(f"{short(pkg):40s} pass {c['pass']:4d}  fail {c['fail']:3d}  skip {c['skip']:3d}{extra}")
    for (port, adapter), (n, want) in v.contract.items():
        floor = f" (expected {want})" if want is not None else " (not in the gate)"
        lines.append(f"{port} contract suite on {adapter}: {n} cases passed{floor}")
    for title, out in v.details:
        lines.append(f"\n--- {title}:\n" + "".join(out).rstrip("\n"))
    if v.problems:
        lines.append("\nThe Go test gate FAILED:")
        lines += [f"  - {p}" for p in v.problems]
    lines.append("\n" + v.closing_line())
    return lines


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json", help="go test -json output")
    ap.add_argument("--gate", default=os.path.join(os.path.dirname(__file__), "gate.json"))
    ap.add_argument("--min-tests", type=int, default=1)
    ap.add_argument("--subset", action="store_true", help="partial run: check only the contract suites that ran")
    ap.add_argument("--go-exit", type=int, default=0, help="go test's exit code")
    args = ap.parse_args(argv)
    events, bad = [], 0
    with open(args.json) as f:
        for line in f:
            if not line.strip():
                continue
            try:
                events.append(json.loads(line))
            except ValueError:
                bad += 1
    with open(args.gate) as f:
        gate = json.load(f)
    v = judge(events, gate, min_tests=args.min_tests, subset=args.subset, go_exit=args.go_exit)
    if bad:
        v.problems.append(f"{bad} lines of {args.json} are not go test -json events")
    print("\n".join(report(v)))
    return 0 if v.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
