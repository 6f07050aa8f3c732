// Command lambdacheck checks the functions sam build made against
// template.yaml (issue 15, items 9 and 10):
//
//   - size: an API or step function is at most 15 MB uncompressed, except
//     those that link MuPDF (their Makefile builds them static with
//     musl) and the job worker, which is neither (overBudget);
//   - least privilege: the AWS calls a function's binary can make are read
//     from its Go function table (the pclntab, which -ldflags=-s keeps): the
//     linker keeps an SDK operation only when code that can run reaches it.
//     Each call needs a grant in the function's Policies, and each grant
//     needs a call (or the function's SQS event source), so a new AWS call
//     without a grant fails here, and so does a grant nothing uses.
//
// Usage: go run ./infra/lambdacheck -build .testparts/sam-build
package main

import (
	"debug/elf"
	"debug/gosym"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// sizeBudget is the most an API or step function may weigh, uncompressed.
const sizeBudget = 15_000_000

// overBudget are the functions the budget does not cover, each with the
// most it may weigh (its size when set, plus about 1 MB) so none grows
// unseen. Every API and step function fits: no API function links an engine
// client it does not call (the speech call and the model listing are
// net/http, the LLM and vision clients are wired only where jobs run, the
// platform function serves the OpenAPI snapshot), and awsenv stands in for
// config.LoadDefaultConfig.
func overBudget() map[string]ceiling {
	return map[string]ceiling{
		// x86_64 (it carries espeak-ng): 42.2 MB with audiobooks; room for the characters feature's jobs.
		"WorkerFunction": {46, "the job worker is neither an API nor a step function: it runs every feature's jobs, so it links every engine client (openai-go alone is 17 MB)"},
	}
}

type ceiling struct {
	mb  float64
	why string
}

func main() {
	build := flag.String("build", ".aws-sam/build", "sam build's output folder")
	templatePath := flag.String("template", "template.yaml", "the SAM template")
	flag.Parse()
	fns, err := readTemplate(*templatePath)
	if err != nil {
		fail(err)
	}
	problems := 0
	fmt.Printf("%-22s %8s  %-40s %s\n", "function", "MB", "AWS calls (from the binary)", "finding")
	for _, fn := range fns {
		path := filepath.Join(*build, fn.Name, "bootstrap")
		info, err := os.Stat(path)
		if err != nil {
			fail(err)
		}
		names, err := funcNames(path)
		if err != nil {
			fail(fmt.Errorf("%s: %w", path, err))
		}
		need := required(names)
		for _, a := range fn.EventSource {
			need[a] = "the SQS event source"
		}
		findings := compare(need, fn.Grants)
		if f := checkSize(fn, info.Size()); f != "" {
			findings = append(findings, f)
		}
		problems += len(findings)
		calls := slices.Sorted(mapsKeys(need))
		status := "ok"
		if len(findings) > 0 {
			status = strings.Join(findings, "; ")
		}
		fmt.Printf("%-22s %8.1f  %-40s %s\n", fn.Name, float64(info.Size())/1e6, strings.Join(calls, " "), status)
	}
	if problems > 0 {
		fail(fmt.Errorf("%d findings: grant exactly what each function calls (template.yaml Policies), and keep functions under %d MB", problems, sizeBudget/1_000_000))
	}
	fmt.Println("lambdacheck: every function's policy grants exactly the AWS calls its binary can make, and every size is within budget")
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "lambdacheck:", err)
	os.Exit(1)
}

func mapsKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// checkSize returns a finding when fn weighs more than it may.
func checkSize(fn function, size int64) string {
	if fn.MuPDF {
		return ""
	}
	limit, why := float64(sizeBudget), ""
	if c, ok := overBudget()[fn.Name]; ok {
		limit, why = c.mb*1e6, " (outside the 15 MB budget: "+c.why+")"
	}
	if float64(size) > limit {
		return fmt.Sprintf("%.1f MB is above %.0f MB%s", float64(size)/1e6, limit/1e6, why)
	}
	return ""
}

// compare lists the calls without a grant and the grants without a call.
func compare(need map[string]string, granted []string) []string {
	var out []string
	for _, a := range slices.Sorted(mapsKeys(need)) {
		if !slices.Contains(granted, a) {
			out = append(out, "missing grant "+a)
		}
	}
	for _, a := range granted {
		if _, ok := need[a]; !ok {
			out = append(out, "unused grant "+a)
		}
	}
	return out
}

// funcNames reads a Go binary's function names from its pclntab.
func funcNames(path string) ([]string, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pcln, text := f.Section(".gopclntab"), f.Section(".text")
	if pcln == nil || text == nil {
		return nil, fmt.Errorf("no Go function table")
	}
	data, err := pcln.Data()
	if err != nil {
		return nil, err
	}
	table, err := gosym.NewTable(nil, gosym.NewLineTable(data, text.Addr))
	if err != nil {
		return nil, err
	}
	names := make([]string, len(table.Funcs))
	for i, fn := range table.Funcs {
		names[i] = fn.Name
	}
	return names, nil
}

var sdkCall = regexp.MustCompile(`^github\.com/aws/aws-sdk-go-v2/service/(\w+)\.\(\*(Client|PresignClient)\)\.([A-Z]\w*)$`)

// notCalls are SDK operations the linker keeps that never run in a Lambda.
func notCalls() map[string]string {
	return map[string]string{
		// The default credential chain (config.LoadDefaultConfig), which no
		// function links since awsenv; should one link it again, a Lambda
		// still takes its role's credentials from the environment.
		"sts": "", "sso": "", "ssooidc": "", "signin": "",
		// S3 Express (directory buckets) session auth; Lectern's are general purpose.
		"s3.CreateSession": "",
		// Endpoint discovery, off unless a client enables it.
		"dynamodb.DescribeEndpoints": "",
	}
}

// iamPrefix is the IAM service prefix of an SDK service package.
func iamPrefix(service string) string {
	if service == "sfn" {
		return "states"
	}
	return service
}

// actionsOf maps one SDK operation to the IAM actions it needs.
func actionsOf(service, op string) []string {
	p := iamPrefix(service) + ":"
	switch service + "." + op {
	case "s3.HeadObject":
		return []string{"s3:GetObject"}
	case "s3.ListObjectsV2":
		return []string{"s3:ListBucket"}
	case "s3.CopyObject":
		return []string{"s3:GetObject", "s3:PutObject"}
	case "s3.CreateMultipartUpload", "s3.UploadPart", "s3.CompleteMultipartUpload",
		// A presigned POST form (PresignPostObject) stores as PutObject.
		"s3.PostObject":
		return []string{"s3:PutObject"}
	case "s3.DeleteObjects":
		return []string{"s3:DeleteObject"}
	case "s3.ListObjectVersions":
		// Listing versions is how blob.Store.Purge finds what to delete; its
		// DeleteObjects then names versions, which IAM authorises as
		// DeleteObjectVersion.
		return []string{"s3:ListBucketVersions", "s3:DeleteObjectVersion"}
	case "dynamodb.TransactWriteItems":
		// Each item is authorised as its own action; the store's
		// transactions put, delete and condition-check.
		return []string{"dynamodb:PutItem", "dynamodb:DeleteItem", "dynamodb:ConditionCheckItem"}
	}
	return []string{p + op}
}

// required maps a binary's function names to the IAM actions its calls need,
// each with the call that needs it.
func required(names []string) map[string]string {
	skip := notCalls()
	need := map[string]string{}
	for _, n := range names {
		m := sdkCall.FindStringSubmatch(n)
		if m == nil {
			continue
		}
		service, op := m[1], m[3]
		if m[2] == "PresignClient" {
			// A presigned URL acts with the signer's rights.
			op = strings.TrimPrefix(op, "Presign")
		}
		if _, ok := skip[service]; ok {
			continue
		}
		if _, ok := skip[service+"."+op]; ok {
			continue
		}
		for _, a := range actionsOf(service, op) {
			if _, ok := need[a]; !ok {
				need[a] = service + "." + op
			}
		}
	}
	return need
}

// function is one AWS::Serverless::Function of the template.
type function struct {
	Name string
	// Grants are the actions its Policies allow, sorted.
	Grants []string
	// EventSource are the actions Lambda's event source mapping needs from
	// the function's role (an SQS event).
	EventSource []string
	// MuPDF: built static with cgo by functions/mupdf.mk.
	MuPDF bool
}

// policyTemplates are the SAM policy templates' actions (SAM's
// policy_templates.json), so a template grant is compared as what it allows.
func policyTemplates() map[string][]string {
	return map[string][]string{
		"DynamoDBCrudPolicy":   {"dynamodb:GetItem", "dynamodb:DeleteItem", "dynamodb:PutItem", "dynamodb:Scan", "dynamodb:Query", "dynamodb:UpdateItem", "dynamodb:BatchWriteItem", "dynamodb:BatchGetItem", "dynamodb:DescribeTable", "dynamodb:ConditionCheckItem"},
		"DynamoDBReadPolicy":   {"dynamodb:GetItem", "dynamodb:Scan", "dynamodb:Query", "dynamodb:BatchGetItem", "dynamodb:DescribeTable"},
		"S3CrudPolicy":         {"s3:GetObject", "s3:ListBucket", "s3:GetBucketLocation", "s3:GetObjectVersion", "s3:PutObject", "s3:PutObjectAcl", "s3:GetLifecycleConfiguration", "s3:PutLifecycleConfiguration", "s3:DeleteObject"},
		"S3ReadPolicy":         {"s3:GetObject", "s3:ListBucket", "s3:GetBucketLocation", "s3:GetObjectVersion", "s3:GetLifecycleConfiguration"},
		"S3WritePolicy":        {"s3:PutObject", "s3:PutObjectAcl", "s3:PutLifecycleConfiguration"},
		"SQSSendMessagePolicy": {"sqs:SendMessage*"},
		"SQSPollerPolicy":      {"sqs:ChangeMessageVisibility", "sqs:ChangeMessageVisibilityBatch", "sqs:DeleteMessage", "sqs:DeleteMessageBatch", "sqs:GetQueueAttributes", "sqs:ReceiveMessage"},
	}
}

// sqsEventSource is what Lambda's SQS event source needs from the role
// (AWSLambdaSQSQueueExecutionRole).
func sqsEventSource() []string {
	return []string{"sqs:DeleteMessage", "sqs:GetQueueAttributes", "sqs:ReceiveMessage"}
}

// readTemplate lists the template's functions with their grants.
func readTemplate(path string) ([]function, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseTemplate(data, func(codeURI string) bool {
		mk, err := os.ReadFile(filepath.Join(filepath.Dir(path), codeURI, "Makefile"))
		return err == nil && strings.Contains(string(mk), "mupdf-function")
	})
}

func parseTemplate(data []byte, mupdf func(codeURI string) bool) ([]function, error) {
	return parseTemplateWith(data, mupdf, 10)
}

func parseTemplateWith(data []byte, mupdf func(codeURI string) bool, atLeast int) ([]function, error) {
	var doc struct {
		Resources map[string]struct {
			Type       string `yaml:"Type"`
			Properties struct {
				CodeURI  string      `yaml:"CodeUri"`
				Policies []yaml.Node `yaml:"Policies"`
				Events   map[string]struct {
					Type string `yaml:"Type"`
				} `yaml:"Events"`
			} `yaml:"Properties"`
		} `yaml:"Resources"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	templates := policyTemplates()
	var out []function
	for name, r := range doc.Resources {
		if r.Type != "AWS::Serverless::Function" {
			continue
		}
		fn := function{Name: name, MuPDF: mupdf(r.Properties.CodeURI)}
		for _, p := range r.Properties.Policies {
			var item map[string]yaml.Node
			if err := p.Decode(&item); err != nil {
				return nil, fmt.Errorf("%s: a policy that is not a mapping (a managed policy name?): %w", name, err)
			}
			for key, value := range item {
				if key != "Statement" {
					actions, ok := templates[key]
					if !ok {
						return nil, fmt.Errorf("%s: policy template %s is not in lambdacheck's table", name, key)
					}
					fn.Grants = append(fn.Grants, actions...)
					continue
				}
				var statements []struct {
					Effect string    `yaml:"Effect"`
					Action yaml.Node `yaml:"Action"`
				}
				if err := value.Decode(&statements); err != nil {
					return nil, fmt.Errorf("%s: %w", name, err)
				}
				for _, s := range statements {
					if s.Effect != "Allow" {
						continue
					}
					var actions []string
					if s.Action.Kind == yaml.ScalarNode {
						actions = []string{s.Action.Value}
					} else if err := s.Action.Decode(&actions); err != nil {
						return nil, fmt.Errorf("%s: %w", name, err)
					}
					fn.Grants = append(fn.Grants, actions...)
				}
			}
		}
		for _, e := range r.Properties.Events {
			if e.Type == "SQS" {
				fn.EventSource = sqsEventSource()
			}
		}
		sort.Strings(fn.Grants)
		fn.Grants = slices.Compact(fn.Grants)
		out = append(out, fn)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	if len(out) < atLeast {
		return nil, fmt.Errorf("found %d functions in the template; the parse missed them", len(out))
	}
	return out, nil
}
