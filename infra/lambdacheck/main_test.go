package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestNewCallWithoutGrantIsFound(t *testing.T) {
	tpl := []byte(`
Resources:
  Table: {Type: AWS::DynamoDB::Table}
  ReaderFunction:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: functions/reader
      Policies:
        - Statement:
            - Effect: Allow
              Action: [dynamodb:GetItem]
              Resource: !GetAtt Table.Arn
        - Statement:
            - Effect: Allow
              Action: s3:GetObject
              Resource: "*"
  WorkerFunction:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: functions/worker
      Policies:
        - SQSPollerPolicy: {QueueName: q}
      Events:
        Jobs: {Type: SQS}
`)
	fns, err := parseTemplateAtLeast(tpl, 2)
	if err != nil {
		t.Fatal(err)
	}
	reader, worker := fns[0], fns[1]
	if !slices.Equal(reader.Grants, []string{"dynamodb:GetItem", "s3:GetObject"}) {
		t.Fatalf("reader grants %v", reader.Grants)
	}
	names := []string{
		"github.com/aws/aws-sdk-go-v2/service/dynamodb.(*Client).GetItem",
		"github.com/aws/aws-sdk-go-v2/service/dynamodb.(*Client).GetItem.func1",
		"github.com/aws/aws-sdk-go-v2/service/s3.(*PresignClient).PresignGetObject",
		"github.com/aws/aws-sdk-go-v2/service/sts.(*Client).AssumeRole",
		"github.com/aws/aws-sdk-go-v2/service/s3.(*Client).CreateSession",
	}
	if got := compare(required(names), reader.Grants); len(got) != 0 {
		t.Fatalf("reader: %v", got)
	}
	// A transaction is authorised item by item.
	names = append(names, "github.com/aws/aws-sdk-go-v2/service/dynamodb.(*Client).TransactWriteItems")
	got := compare(required(names), reader.Grants)
	want := []string{"missing grant dynamodb:ConditionCheckItem", "missing grant dynamodb:DeleteItem", "missing grant dynamodb:PutItem"}
	if !slices.Equal(got, want) {
		t.Fatalf("reader with a transaction: %v, want %v", got, want)
	}
	// The poller template grants more than the event source uses.
	need := required(nil)
	for _, a := range worker.EventSource {
		need[a] = "event source"
	}
	got = compare(need, worker.Grants)
	want = []string{"unused grant sqs:ChangeMessageVisibility", "unused grant sqs:ChangeMessageVisibilityBatch", "unused grant sqs:DeleteMessageBatch"}
	if !slices.Equal(got, want) {
		t.Fatalf("worker: %v, want %v", got, want)
	}
}

// A presigned upload form stores with the signer's s3:PutObject.
func TestPresignedPostNeedsPutObject(t *testing.T) {
	got := required([]string{"github.com/aws/aws-sdk-go-v2/service/s3.(*PresignClient).PresignPostObject"})
	if len(got) != 1 || got["s3:PutObject"] == "" {
		t.Fatalf("a presigned POST needs %v, want s3:PutObject", got)
	}
}

func TestSizeBudget(t *testing.T) {
	if f := checkSize(function{Name: "NewFunction"}, 15_000_001); f == "" {
		t.Fatal("a new function above 15 MB passed")
	}
	if f := checkSize(function{Name: "RenderFunction", MuPDF: true}, 60_000_000); f != "" {
		t.Fatalf("a MuPDF function: %s", f)
	}
	if f := checkSize(function{Name: "MagazineFunction"}, 38_000_000); f == "" {
		t.Fatal("an over-budget function grew past its ceiling and passed")
	}
	// The steps and Settings link no engine client now: back on the budget.
	for _, name := range []string{"SettingsFunction", "CleanupFunction", "OrderFunction", "FinalizeFunction", "FailIssueFunction", "RefineFiguresFunction"} {
		if f := checkSize(function{Name: name}, 15_000_001); f == "" {
			t.Errorf("%s above 15 MB passed", name)
		}
	}
}

// A ceiling at or under the budget is an entry to remove: it would let the
// function grow to the ceiling unnoticed.
func TestCeilingsAreAboveTheBudget(t *testing.T) {
	for name, c := range overBudget() {
		if c.mb*1e6 <= sizeBudget {
			t.Errorf("%s has a ceiling of %.0f MB, within the %d MB budget: remove its entry", name, c.mb, sizeBudget/1_000_000)
		}
	}
}

// parseTemplateAtLeast parses a small template: no function links MuPDF.
func parseTemplateAtLeast(data []byte, atLeast int) ([]function, error) {
	return parseTemplateWith(data, func(string) bool { return false }, atLeast)
}

// TestDeployFindsItsStack: make deploy reads the outputs of the stack
// samconfig.toml deploys, and invalidates the distribution the template
// outputs after the site sync (CloudFront's cache key ignores ?v=VERSION).
func TestDeployFindsItsStack(t *testing.T) {
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join("..", "..", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	samconfig, makefile, template := read("samconfig.toml"), read("Makefile"), read("template.yaml")
	stack := regexp.MustCompile(`(?m)^stack_name = "([^"]+)"$`).FindStringSubmatch(samconfig)
	if stack == nil {
		t.Fatal("samconfig.toml names no stack")
	}
	if !strings.Contains(makefile, "STACK ?= "+stack[1]+"\n") {
		t.Fatalf("the Makefile's STACK default is not samconfig.toml's stack %q", stack[1])
	}
	deploy := makefile[strings.Index(makefile, "\ndeploy:"):]
	deploy = deploy[:strings.Index(deploy, "\n\n")]
	for _, output := range regexp.MustCompile(`output (\w+)\)`).FindAllStringSubmatch(deploy, -1) {
		if !regexp.MustCompile(`(?m)^  ` + output[1] + `:$`).MatchString(template) {
			t.Errorf("make deploy reads output %s, which template.yaml does not have", output[1])
		}
	}
	sync, invalidate := strings.Index(deploy, "aws s3 sync"), strings.Index(deploy, "aws cloudfront create-invalidation")
	if sync < 0 || invalidate < sync || !strings.Contains(deploy, "output SiteDistributionId") {
		t.Fatal("make deploy does not invalidate the site's distribution after the site sync")
	}
}
