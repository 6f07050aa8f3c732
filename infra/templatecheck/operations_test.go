package templatecheck

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// ingestSteps are the functions the state machine's Task states call per
// issue or page; they get reserved concurrency so ingest cannot starve the API.
var ingestSteps = []string{"PrepareFunction", "RenderFunction", "RecognizeFunction", "RefineFiguresFunction", "CleanupFunction", "OrderFunction", "FinalizeFunction"}

// readTemplate parses template.yaml as nodes, which keep CloudFormation's
// intrinsic tags (!Ref, !GetAtt, !Sub) as tags on their values.
func readTemplate(t *testing.T) *yaml.Node {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Content[0]
}

// at follows mapping keys from n; nil when one is missing.
func at(n *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				next = n.Content[i+1]
			}
		}
		n = next
	}
	return n
}

// is says n is the scalar value with tag ("" for a plain scalar: yaml's
// own !!str, !!int, !!bool, not an intrinsic function).
func is(n *yaml.Node, tag, value string) bool {
	if n == nil || n.Kind != yaml.ScalarNode || n.Value != value {
		return false
	}
	return tag == "" && (n.Tag == "" || strings.HasPrefix(n.Tag, "!!")) || n.Tag == tag
}

// items is a sequence's entries; none when n is missing.
func items(n *yaml.Node) []*yaml.Node {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}

// resources lists the template's resources of a type, by logical id.
func resources(root *yaml.Node, typ string) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	res := at(root, "Resources")
	for i := 0; res != nil && i+1 < len(res.Content); i += 2 {
		if r := res.Content[i+1]; is(at(r, "Type"), "", typ) {
			out[res.Content[i].Value] = r
		}
	}
	return out
}

// operationsFindings lists each operations setting the template lacks.
func operationsFindings(root *yaml.Node) []string {
	var out []string
	miss := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }

	for _, p := range []string{"IngestStepConcurrency", "LogRetentionDays", "AlarmEmail", "ApiThrottlingBurstLimit", "ApiThrottlingRateLimit"} {
		if at(root, "Parameters", p, "Default") == nil {
			miss("parameter %s with a default", p)
		}
	}
	for _, fn := range ingestSteps {
		if !is(at(root, "Resources", fn, "Properties", "ReservedConcurrentExecutions"), "!Ref", "IngestStepConcurrency") {
			miss("%s: ReservedConcurrentExecutions !Ref IngestStepConcurrency", fn)
		}
	}

	// Every function's log group, with the retention parameter.
	retained := map[string]bool{}
	for _, g := range resources(root, "AWS::Logs::LogGroup") {
		name := at(g, "Properties", "LogGroupName")
		if name != nil && is(at(g, "Properties", "RetentionInDays"), "!Ref", "LogRetentionDays") {
			retained[name.Value] = true
		}
	}
	for fn := range resources(root, "AWS::Serverless::Function") {
		if !retained["/aws/lambda/${"+fn+"}"] {
			miss("%s: a log group /aws/lambda/${%s} with RetentionInDays !Ref LogRetentionDays", fn, fn)
		}
	}

	sm := at(root, "Resources", "IngestStateMachine", "Properties")
	if !is(at(sm, "Logging", "Level"), "", "ERROR") || !is(at(sm, "Logging", "IncludeExecutionData"), "", "false") {
		miss("IngestStateMachine: Logging Level ERROR, IncludeExecutionData false")
	}
	if d := items(at(sm, "Logging", "Destinations")); len(d) == 0 {
		miss("IngestStateMachine: a log group destination")
	} else if g := at(d[0], "CloudWatchLogsLogGroup", "LogGroupArn"); !is(g, "!GetAtt", "IngestStateMachineLogGroup.Arn") ||
		!is(at(root, "Resources", "IngestStateMachineLogGroup", "Properties", "RetentionInDays"), "!Ref", "LogRetentionDays") {
		miss("IngestStateMachine: logs to IngestStateMachineLogGroup, kept LogRetentionDays")
	}
	if !policyAllows(at(sm, "Policies"), "logs:CreateLogDelivery") {
		miss("IngestStateMachine: the log delivery grants (logs:CreateLogDelivery, ...)")
	}

	// Alarms: failed executions, and a message in any dead letter queue.
	alarmed := map[string]bool{}
	for _, a := range resources(root, "AWS::CloudWatch::Alarm") {
		p := at(a, "Properties")
		if !is(at(p, "Threshold"), "", "0") || !is(at(p, "ComparisonOperator"), "", "GreaterThanThreshold") || !slices.ContainsFunc(items(at(p, "AlarmActions")), func(n *yaml.Node) bool { return is(n, "!Ref", "AlarmTopic") }) {
			continue
		}
		for _, d := range items(at(p, "Dimensions")) {
			alarmed[at(p, "MetricName").Value+" "+at(d, "Value").Value] = true
		}
	}
	if !alarmed["ExecutionsFailed IngestStateMachine"] {
		miss("an alarm on ExecutionsFailed > 0 of IngestStateMachine, to AlarmTopic")
	}
	for q := range resources(root, "AWS::SQS::Queue") {
		if strings.HasSuffix(q, "DeadLetterQueue") && !alarmed["ApproximateNumberOfMessagesVisible "+q+".QueueName"] {
			miss("an alarm on ApproximateNumberOfMessagesVisible > 0 of %s, to AlarmTopic", q)
		}
	}
	if !is(at(root, "Resources", "AlarmEmailSubscription", "Properties", "Endpoint"), "!Ref", "AlarmEmail") ||
		!is(at(root, "Resources", "AlarmEmailSubscription", "Condition"), "", "HasAlarmEmail") {
		miss("AlarmEmailSubscription: AlarmTopic to AlarmEmail when one is given")
	}

	// Every EventBridge target retries, then keeps what it could not deliver.
	rules := 0
	for _, typ := range []string{"AWS::Serverless::Function", "AWS::Serverless::StateMachine"} {
		for name, r := range resources(root, typ) {
			ev := at(r, "Properties", "Events")
			for i := 0; ev != nil && i+1 < len(ev.Content); i += 2 {
				e := ev.Content[i+1]
				if !is(at(e, "Type"), "", "EventBridgeRule") {
					continue
				}
				rules++
				if at(e, "Properties", "RetryPolicy", "MaximumRetryAttempts") == nil {
					miss("%s event %s: a RetryPolicy", name, ev.Content[i].Value)
				}
				if dlq := at(e, "Properties", "DeadLetterConfig", "Arn"); dlq == nil || dlq.Tag != "!GetAtt" {
					miss("%s event %s: a DeadLetterConfig (SQS queue)", name, ev.Content[i].Value)
				}
			}
		}
	}
	if rules < 2 {
		miss("the upload and watchdog EventBridge rules (found %d)", rules)
	}

	// Every bucket refuses plain HTTP.
	tlsOnly := map[string]bool{}
	for _, p := range resources(root, "AWS::S3::BucketPolicy") {
		for _, st := range items(at(p, "Properties", "PolicyDocument", "Statement")) {
			if is(at(st, "Effect"), "", "Deny") && is(at(st, "Condition", "Bool", "aws:SecureTransport"), "", "false") {
				tlsOnly[at(p, "Properties", "Bucket").Value] = true
			}
		}
	}
	for b := range resources(root, "AWS::S3::Bucket") {
		if !tlsOnly[b] {
			miss("%s: a bucket policy denying aws:SecureTransport false", b)
		}
	}

	var expires, aborts bool
	for _, rule := range items(at(root, "Resources", "UploadsBucket", "Properties", "LifecycleConfiguration", "Rules")) {
		if is(at(rule, "Prefix"), "", "uploads/") && (at(rule, "ExpirationInDays") != nil || at(rule, "NoncurrentVersionExpiration") != nil) {
			expires = true
		}
		if at(rule, "AbortIncompleteMultipartUpload", "DaysAfterInitiation") != nil {
			aborts = true
		}
	}
	if !expires || !aborts {
		miss("UploadsBucket: an expiry rule on uploads/ and AbortIncompleteMultipartUpload")
	}
	for _, k := range []string{"DeletionPolicy", "UpdateReplacePolicy"} {
		if !is(at(root, "Resources", "SiteBucket", k), "", "Retain") {
			miss("SiteBucket: %s Retain", k)
		}
	}
	api := at(root, "Resources", "LecternHttpApi", "Properties", "DefaultRouteSettings")
	if !is(at(api, "ThrottlingBurstLimit"), "!Ref", "ApiThrottlingBurstLimit") || !is(at(api, "ThrottlingRateLimit"), "!Ref", "ApiThrottlingRateLimit") {
		miss("LecternHttpApi: DefaultRouteSettings throttling from the parameters")
	}
	slices.Sort(out)
	return out
}

// policyAllows says a SAM Policies list has an Allow statement with action.
func policyAllows(policies *yaml.Node, action string) bool {
	for _, p := range items(policies) {
		for _, s := range items(at(p, "Statement")) {
			a := at(s, "Action")
			if !is(at(s, "Effect"), "", "Allow") || a == nil {
				continue
			}
			if is(a, "", action) || slices.ContainsFunc(items(a), func(n *yaml.Node) bool { return is(n, "", action) }) {
				return true
			}
		}
	}
	return false
}

func TestTemplateHasItsOperationsSettings(t *testing.T) {
	if f := operationsFindings(readTemplate(t)); len(f) > 0 {
		t.Fatalf("template.yaml lacks %d operations settings:\n  %s", len(f), strings.Join(f, "\n  "))
	}
}

// Each setting is checked: removing any one is found.
func TestRemovingASettingIsFound(t *testing.T) {
	for _, path := range [][]string{
		{"Parameters", "LogRetentionDays"},
		{"Resources", "RenderFunction", "Properties", "ReservedConcurrentExecutions"},
		{"Resources", "ReviewFunctionLogGroup"},
		{"Resources", "IngestStateMachine", "Properties", "Logging"},
		{"Resources", "IngestStateMachine", "Properties", "Policies"},
		{"Resources", "IngestExecutionsFailedAlarm"},
		{"Resources", "JobDeadLetterQueueAlarm"},
		{"Resources", "AlarmEmailSubscription"},
		{"Resources", "IngestStateMachine", "Properties", "Events", "Uploaded", "Properties", "DeadLetterConfig"},
		{"Resources", "FailIssueFunction", "Properties", "Events", "ExecutionEnded", "Properties", "RetryPolicy"},
		{"Resources", "MediaBucketPolicy"},
		{"Resources", "UploadsBucketPolicy"},
		{"Resources", "UploadsBucket", "Properties", "LifecycleConfiguration"},
		{"Resources", "WatchdogDeadLetterQueueAlarm"},
		{"Resources", "SiteBucket", "DeletionPolicy"},
		{"Resources", "LecternHttpApi", "Properties", "DefaultRouteSettings"},
	} {
		root := readTemplate(t)
		parent, key := at(root, path[:len(path)-1]...), path[len(path)-1]
		if !remove(parent, key) {
			t.Fatalf("template.yaml has no %s", strings.Join(path, "."))
		}
		if len(operationsFindings(root)) == 0 {
			t.Errorf("removing %s was not found", strings.Join(path, "."))
		}
	}
}

// remove deletes key from mapping n.
func remove(n *yaml.Node, key string) bool {
	for i := 0; n != nil && i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			n.Content = append(n.Content[:i], n.Content[i+2:]...)
			return true
		}
	}
	return false
}
