package asl

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// specCase is one fixture in testdata/spec: an example from the Amazon States
// Language specification (https://states-language.net) or the Step Functions
// developer guide, with what the runner and asl-validator must make of it.
//
//	{
//	  "source":     where the example comes from,
//	  "note":       optional: how the fixture departs from the source, or why,
//	  "definition": the state machine,
//	  "input":      the execution input (default {}),
//	  "tasks":      {"<Resource>": [reply, …]}: the stub handler's replies in
//	                call order, the last one answering every further call;
//	                a reply is {"output": v}, {"echo": true} (returns its
//	                input) or {"error": name, "cause": text}, and "input"
//	                in a reply is what that call must receive,
//	  "validator":  "valid" or "invalid": what asl-validator says,
//	  "want": exactly one of
//	    "output":  the execution's output,
//	    "error":   the execution's error name (and "cause", if given),
//	    "refused": text Parse's error must contain, naming the construct;
//	  and "sleeps": the retry waits in seconds, when a Retrier fires
//	}
//
// A definition asl-validator refuses must be refused by Parse too; one it
// accepts either runs to the spec's result or is refused by Parse with the
// unsupported construct named.
type specCase struct {
	name       string
	Source     string                 `json:"source"`
	Note       string                 `json:"note"`
	Definition json.RawMessage        `json:"definition"`
	Input      json.RawMessage        `json:"input"`
	Tasks      map[string][]taskReply `json:"tasks"`
	Validator  string                 `json:"validator"`
	Want       struct {
		Output  json.RawMessage `json:"output"`
		Error   string          `json:"error"`
		Cause   string          `json:"cause"`
		Refused string          `json:"refused"`
		Sleeps  []float64       `json:"sleeps"`
	} `json:"want"`
}

type taskReply struct {
	Input  json.RawMessage `json:"input"`
	Output json.RawMessage `json:"output"`
	Echo   bool            `json:"echo"`
	Error  string          `json:"error"`
	Cause  string          `json:"cause"`
}

const specDir = "testdata/spec"

// loadSpecCases reads every fixture, refusing malformed ones so a typo cannot
// turn a case into one that checks nothing.
func loadSpecCases(t *testing.T) []*specCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(specDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in %s: %v", specDir, err)
	}
	var cases []*specCase
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c := &specCase{name: strings.TrimSuffix(filepath.Base(f), ".json")}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(c); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		w := c.Want
		outcomes := 0
		for _, set := range []bool{w.Output != nil, w.Error != "", w.Refused != ""} {
			if set {
				outcomes++
			}
		}
		switch {
		case c.Source == "" || c.Definition == nil:
			t.Fatalf("%s: needs source and definition", f)
		case outcomes != 1:
			t.Fatalf("%s: want needs exactly one of output, error, refused", f)
		case c.Validator != "valid" && c.Validator != "invalid":
			t.Fatalf("%s: validator must be \"valid\" or \"invalid\"", f)
		case c.Validator == "invalid" && w.Refused == "":
			t.Fatalf("%s: asl-validator refuses it, so the runner must too (want.refused)", f)
		case w.Refused != "" && (c.Tasks != nil || c.Input != nil):
			t.Fatalf("%s: a refused definition never runs: drop tasks and input", f)
		}
		cases = append(cases, c)
	}
	return cases
}

// TestSpecCasesRun runs every fixture through Parse and Run.
func TestSpecCasesRun(t *testing.T) {
	for _, c := range loadSpecCases(t) {
		t.Run(c.name, func(t *testing.T) {
			def, err := Parse(c.Definition)
			if c.Want.Refused != "" {
				if err == nil {
					t.Fatalf("Parse accepted it; want it refused naming %q", c.Want.Refused)
				}
				if !strings.Contains(err.Error(), c.Want.Refused) {
					t.Fatalf("Parse error %q does not name %q", err, c.Want.Refused)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			stubs := &scriptedTasks{t: t, replies: c.Tasks, calls: map[string]int{}}
			rec := &sleeps{}
			input := c.Input
			if input == nil {
				input = json.RawMessage(`{}`)
			}
			out, err := Run(t.Context(), def, input, Options{Handlers: stubs.handlers(def.Resources()), Sleep: rec.sleep})
			if c.Want.Error != "" {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("Run = %s, %v; want error %s", out, err, c.Want.Error)
				}
				if e.Name != c.Want.Error || (c.Want.Cause != "" && e.Cause != c.Want.Cause) {
					t.Errorf("error %s / %q, want %s / %q", e.Name, e.Cause, c.Want.Error, c.Want.Cause)
				}
			} else {
				if err != nil {
					t.Fatalf("Run: %v", err)
				}
				jsonEqual(t, out, string(c.Want.Output))
			}
			wantSleeps := c.Want.Sleeps
			if wantSleeps == nil {
				wantSleeps = []float64{}
			}
			if got := rec.seconds(); !reflect.DeepEqual(got, wantSleeps) {
				t.Errorf("retry sleeps %v, want %v", got, wantSleeps)
			}
			stubs.checkAllUsed()
		})
	}
}

// scriptedTasks answers each Resource with the fixture's replies in turn.
type scriptedTasks struct {
	t       *testing.T
	replies map[string][]taskReply
	mu      sync.Mutex
	calls   map[string]int
}

func (s *scriptedTasks) handlers(resources []string) map[string]Handler {
	for r := range s.replies {
		if !slices.Contains(resources, r) {
			s.t.Errorf("tasks names %q, which no Task uses", r)
		}
	}
	out := map[string]Handler{}
	for _, r := range resources {
		out[r] = func(_ context.Context, in json.RawMessage) (json.RawMessage, error) {
			s.mu.Lock()
			n := s.calls[r]
			s.calls[r]++
			s.mu.Unlock()
			script := s.replies[r]
			if len(script) == 0 {
				s.t.Errorf("unexpected call to %s with %s", r, in)
				return nil, errors.New("no reply scripted")
			}
			reply := script[min(n, len(script)-1)]
			if reply.Input != nil {
				jsonEqual(s.t, in, string(reply.Input))
			}
			switch {
			case reply.Error != "":
				return nil, &Error{Name: reply.Error, Cause: reply.Cause}
			case reply.Echo:
				return in, nil
			}
			return reply.Output, nil
		}
	}
	return out
}

func (s *scriptedTasks) checkAllUsed() {
	for r, script := range s.replies {
		if n := s.calls[r]; n < len(script) {
			s.t.Errorf("%s was called %d times; %d replies are scripted", r, n, len(script))
		}
	}
}

// defaultValidator is where `make test-tools` installs asl-validator; the
// Makefile passes the same path as ASL_VALIDATOR.
const defaultValidator = ".cache/lectern/tools/asl-validator-4.0.0/node_modules/.bin/asl-validator"

// TestSpecCasesAgreeWithASLValidator runs asl-validator over every fixture's
// definition and checks its verdict against the fixture's. The tool compiles
// its JSON schemas afresh for each definition (0.2 to 0.3 s of CPU), so each
// distinct definition is validated once, the files shared out between one
// process per CPU.
func TestSpecCasesAgreeWithASLValidator(t *testing.T) {
	bin := os.Getenv("ASL_VALIDATOR")
	if bin == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Fatal(err)
		}
		bin = filepath.Join(home, defaultValidator)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("asl-validator not found (%v): run `make test-tools` to install it", err)
	}
	cases := loadSpecCases(t)
	dir := t.TempDir()
	procs := runtime.GOMAXPROCS(0)
	args := make([][]string, procs)
	files := map[string]string{} // compacted definition → the file holding it
	key := func(c *specCase) string {
		var b bytes.Buffer
		if err := json.Compact(&b, c.Definition); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for _, c := range cases {
		if files[key(c)] != "" {
			continue
		}
		f := filepath.Join(dir, c.name+".json")
		if err := os.WriteFile(f, c.Definition, 0o644); err != nil {
			t.Fatal(err)
		}
		files[key(c)] = f
		i := len(files) % procs
		args[i] = append(args[i], "--json-path", f)
	}
	var (
		wg             sync.WaitGroup
		mu             sync.Mutex
		stdout, stderr bytes.Buffer
	)
	for _, a := range args {
		if len(a) == 0 {
			continue
		}
		wg.Go(func() {
			var out, errOut bytes.Buffer
			cmd := exec.CommandContext(t.Context(), bin, a...)
			cmd.Stdout, cmd.Stderr = &out, &errOut
			err := cmd.Run()
			// Exit status 1 means some definition is invalid; anything else
			// is the tool failing.
			if ee := (*exec.ExitError)(nil); err != nil && (!errors.As(err, &ee) || ee.ExitCode() != 1) {
				t.Errorf("asl-validator: %v\n%s", err, errOut.String())
			}
			mu.Lock()
			defer mu.Unlock()
			stdout.Write(out.Bytes())
			stderr.Write(errOut.Bytes())
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for _, c := range cases {
		f := files[key(c)]
		// It prints `✓ State machine definition "<file>" is valid` on stdout
		// and `✕ … "<file>" is invalid:` with the reasons on stderr.
		got, reasons := "", ""
		if strings.Contains(stdout.String(), fmt.Sprintf("%q is valid", f)) {
			got = "valid"
		} else if _, after, ok := strings.Cut(stderr.String(), fmt.Sprintf("%q is invalid:", f)); ok {
			got = "invalid"
			reasons, _, _ = strings.Cut(after, "✕")
		} else {
			t.Errorf("%s: asl-validator gave no verdict\n%s", c.name, stderr.String())
			continue
		}
		if got != c.Validator {
			t.Errorf("%s: asl-validator says %s, the fixture says %s%s", c.name, got, c.Validator, reasons)
		}
	}
}
