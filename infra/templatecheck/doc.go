// Package templatecheck holds the tests that read template.yaml for the
// stack's operations settings (issue 15 item 11): reserved concurrency of
// the ingest steps, state machine logging, alarms, log retention, dead
// letter queues and retries on the EventBridge targets, TLS-only buckets,
// upload lifecycle rules, the retained site bucket and API throttling.
package templatecheck
