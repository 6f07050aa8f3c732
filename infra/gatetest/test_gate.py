"""Tests the Go test gate (infra/gotest-summary.py) on real `go test -json`
runs of the fixture packages in testdata/, each passing or breaking go test
in one way, and on made-up events for the floors. make test runs it first:
  python3 -m unittest infra/gatetest/test_gate.py
"""
import importlib.util
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
INFRA = HERE.parent
SUMMARY = INFRA / "gotest-summary.py"
spec = importlib.util.spec_from_file_location("gotest_summary", SUMMARY)
gate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gate)
GATE = json.loads((INFRA / "gate.json").read_text())
NO_SAMPLES = {}  # an environment without LECTERN_SAMPLE_DATA
GO_ENV = dict(os.environ, GOWORK="off", GOFLAGS="")


def go_test_json(cwd, *args):
    """Runs go test -json in cwd; returns its exit code and output text."""
    p = subprocess.run(["go", "test", "-json", *args], cwd=cwd, env=GO_ENV,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout


def decode(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def summary_cli(text, *args):
    """Runs gotest-summary.py on text as its json file; returns exit code and output."""
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        f.write(text)
        f.flush()
        p = subprocess.run([sys.executable, str(SUMMARY), *args, f.name],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


class Fixtures(unittest.TestCase):
    """One go test run of every fixture package; each is judged on its own."""

    @classmethod
    def setUpClass(cls):
        cls.exit, out = go_test_json(HERE / "testdata", "-count=1", "-timeout", "5s", "./...")
        cls.events = decode(out)

    def package(self, name):
        path = "gatefixtures/" + name
        evs = [e for e in self.events
               if e.get("Package") == path or e.get("ImportPath", "").split(" ")[0] == path]
        self.assertTrue(evs, f"no events for {path}: did the fixture run?")
        return evs

    def judge(self, name, env=NO_SAMPLES, **kw):
        return gate.judge(self.package(name), GATE, subset=True, env=env, **kw)

    def assertFails(self, v, *wanted):
        self.assertFalse(v.ok, "the gate passed a broken run:\n" + "\n".join(gate.report(v)))
        text = "\n".join(v.problems)
        for w in wanted:
            self.assertIn(w, text)

    def assertPasses(self, v):
        self.assertTrue(v.ok, "the gate failed a good run:\n" + "\n".join(gate.report(v)))

    def test_go_test_exits_non_zero_on_the_fixture_module(self):
        self.assertNotEqual(self.exit, 0)

    def test_passing_package_passes(self):
        v = self.judge("pass")
        self.assertPasses(v)
        self.assertEqual((v.run, v.failed, v.skipped, v.unfinished, v.broken), (4, 0, 0, 0, 0))

    def test_failing_test_fails(self):
        v = self.judge("fail")
        self.assertFails(v, "failed tests: 1")
        self.assertEqual(v.failed, 1)

    def test_goroutine_panic_after_passing_tests_fails(self):
        v = self.judge("goroutinepanic")
        self.assertFails(v, f"TestGoroutinePanics {gate.UNFINISHED}", "goroutinepanic: package broken: panicked")
        self.assertEqual((v.packages["gatefixtures/goroutinepanic"]["pass"], v.unfinished, v.broken), (1, 1, 1))

    def test_timeout_fails(self):
        v = self.judge("hang")
        self.assertFails(v, f"TestHangs {gate.UNFINISHED}", "timed out")

    def test_os_exit_in_mid_test_fails(self):
        v = self.judge("exitmidtest")
        self.assertFails(v, "exitmidtest: package broken")

    def test_testmain_exiting_non_zero_fails(self):
        v = self.judge("testmainexit")
        self.assertFails(v, "testmainexit: package broken: failed, and no failed test says why")
        self.assertEqual((v.run, v.failed), (1, 0))

    def test_unlisted_skip_fails_and_shows_its_output(self):
        v = self.judge("skipunlisted")
        self.assertFails(v, "TestSkipsUnlisted skipped, and no entry")
        shown = "".join(line for _, out in v.details for line in out)
        self.assertIn("planted skip that no allowlist entry covers", shown)

    def judge_listed(self, env):
        """Judges skiplisted with the real gate plus its test named in the
        evaluations' entry."""
        listed = json.loads(json.dumps(GATE))
        listed["allowed_skips"][0]["tests"].append("TestEvalFixture")
        return gate.judge(self.package("skiplisted"), listed, subset=True, env=env)

    def test_listed_skip_passes_without_sample_data(self):
        v = self.judge_listed(NO_SAMPLES)
        self.assertPasses(v)
        self.assertEqual(v.packages["gatefixtures/skiplisted"]["allowed skip"], 1)

    def test_listed_skip_fails_when_sample_data_is_there(self):
        v = self.judge_listed({"LECTERN_SAMPLE_DATA": "/somewhere"})
        self.assertFails(v, "TestEvalFixture skipped, and no entry")

    def test_a_new_test_sharing_a_listed_prefix_may_not_skip(self):
        # The real gate names its evaluations one by one: a new TestEval*
        # test that skips is not covered by a prefix.
        v = self.judge("skiplisted")
        self.assertFails(v, "TestEvalFixture skipped, and no entry")

    def test_build_failure_fails(self):
        v = self.judge("nocompile")
        self.assertFails(v, "nocompile: package broken: build failed")

    def test_min_tests_floor(self):
        self.assertPasses(self.judge("pass", min_tests=4))
        self.assertFails(self.judge("pass", min_tests=5), "only 4 tests ran; the floor is 5")

    def test_go_exit_code_fails_an_otherwise_green_run(self):
        text = "".join(json.dumps(e) + "\n" for e in self.package("pass"))
        code, out = summary_cli(text, "--subset", "--go-exit", "0")
        self.assertEqual(code, 0, out)
        code, out = summary_cli(text, "--subset", "--go-exit", "1")
        self.assertEqual(code, 1, out)
        self.assertIn("go test exited 1", out)
        self.assertIn("Go tests: 4 run, 0 failed, 0 skipped, 0 unfinished, 0 packages broken", out)

    def test_whole_fixture_run_fails_through_the_command_line(self):
        text = "".join(json.dumps(e) + "\n" for e in self.events)
        code, out = summary_cli(text, "--subset", "--go-exit", str(self.exit))
        self.assertEqual(code, 1, out)
        self.assertIn("The Go test gate FAILED", out)


class NoPackages(unittest.TestCase):
    def test_go_that_cannot_list_the_packages_fails(self):
        with tempfile.TemporaryDirectory() as d:
            pathlib.Path(d, "go.mod").write_text("module broken\n\nrequire (\n")
            code, text = go_test_json(d, "./...")
        self.assertNotEqual(code, 0)
        self.assertEqual(decode(text), [])
        v = gate.judge([], GATE, subset=True, env=NO_SAMPLES)
        self.assertFalse(v.ok)
        self.assertIn("no package ran", "\n".join(v.problems))
        code, out = summary_cli(text, "--subset")
        self.assertEqual(code, 1, out)
        self.assertIn("Go tests: 0 run", out)


def contract_run(cases):
    """Events of a green run of contract suites: cases maps (port, adapter) to
    the number of cases that pass."""
    events = []
    for (port, adapter), n in cases.items():
        pkg = f"{gate.MODULE}shared/{port}/{adapter}"
        events.append({"Action": "start", "Package": pkg})
        names = ["TestContract", f"TestContract/{adapter}"] + [f"TestContract/{adapter}/case_{i}" for i in range(n)]
        events += [{"Action": "run", "Package": pkg, "Test": t} for t in names]
        events += [{"Action": "pass", "Package": pkg, "Test": t} for t in reversed(names)]
        events.append({"Action": "pass", "Package": pkg})
    return events


class ContractFloors(unittest.TestCase):
    full = {(port, adapter): n for port, adapters in GATE["contract_cases"].items() for adapter, n in adapters.items()}

    def judge(self, cases, subset=False):
        return gate.judge(contract_run(cases), GATE, subset=subset, env=NO_SAMPLES)

    def test_gate_lists_every_contract_suite(self):
        self.assertEqual(self.full, {
            ("store", "bolt"): 24, ("store", "dynamodb-local"): 24,
            ("blob", "localfs"): 24, ("blob", "minio"): 24,
            ("jobs", "local-pool"): 10, ("jobs", "sqs-elasticmq"): 10,
            ("voices", "sqlite"): 17, ("voices", "dynamodb-local"): 17, ("voices", "remote"): 17,
            ("pipeline", "inprocess"): 6, ("pipeline", "localstack"): 5,
        })

    def test_every_suite_at_its_floor_passes(self):
        v = self.judge(self.full)
        self.assertTrue(v.ok, v.problems)
        self.assertEqual(v.contract[("store", "dynamodb-local")], (24, 24))

    def test_missing_suite_fails_a_full_run(self):
        cases = dict(self.full)
        del cases[("store", "dynamodb-local")]
        v = self.judge(cases)
        self.assertIn("store contract suite on dynamodb-local: 0 of 24 cases passed", v.problems)

    def test_one_case_short_fails(self):
        v = self.judge(self.full | {("jobs", "sqs-elasticmq"): 9})
        self.assertIn("jobs contract suite on sqs-elasticmq: 9 of 10 cases passed", v.problems)

    def test_adapter_not_in_the_gate_fails(self):
        v = self.judge(self.full | {("store", "postgres"): 24})
        self.assertIn("store contract suite on postgres is not in the gate's contract_cases; add its case count",
                      v.problems)

    def test_subset_checks_only_the_suites_that_ran(self):
        self.assertTrue(self.judge({("store", "bolt"): 24}, subset=True).ok)
        v = self.judge({("store", "bolt"): 23}, subset=True)
        self.assertEqual(v.problems, ["store contract suite on bolt: 23 of 24 cases passed"])


if __name__ == "__main__":
    unittest.main()
