package recall

import "testing"

// A reversal that puts one thing of a kind in another's place is seen
// though the two share one subject word; pairs about different things,
// or of one kind but about nothing in common, are not.
func TestAlternatives(t *testing.T) {
	for _, c := range []struct {
		older, newer string
		want         bool
	}{
		{"Chose GitHub Actions for CI.", "Chose GitLab CI for CI after the migration.", true},
		{"Reporting reads from MySQL replicas.", "Reporting reads from Postgres now, MySQL is gone.", false}, // holds the other's word: alike already
		{"Sessions are cached in Redis.", "Session cache moved to Memcached for its simpler ops.", true},
		{"Chose Redis for the session cache.", "Chose Postgres for reporting.", false},
		{"Chose Jenkins for CI.", "The deploy pipeline runs migrations before the web pods roll.", false},
		{"Chose Tailwind for the web styling.", "Chose Stripe for card payments.", false},
		{"Chose GitHub Actions for CI.", "Chose GitHub Actions for CI.", false},
		{"Logs go to Datadog.", "Metrics go to Prometheus.", false}, // one kind of tool, but only the verb in common
		{"Logs go to Datadog.", "Logs now go to Grafana Loki instead.", true},
		{"Picked React for the UI.", "Switched the UI to Vue.", true},
		{"Hosting on AWS.", "Moved hosting to GCP.", true},
		{"The web app uses React.", "The docs site uses Svelte.", false}, // one kind, nothing else in common
		{"State lives in Redux.", "Moved the client state to Zustand.", true},
		{"The API is built on Flask.", "Rewrote the API on FastAPI for async.", true},
		{"Errors are reported to Sentry.", "Errors now go to Rollbar.", true},
		{"Service config is written in YAML.", "Service config moved to TOML.", true},
		{"The config is YAML.", "The API returns JSON.", false},
		{"Queries go through GORM.", "Queries are written with sqlc now.", true},
		{"Auth uses session cookies.", "Auth moved to JWT access tokens with refresh rotation.", true},
		{"Auth uses session cookies.", "Auth errors are logged with the user's ID.", false},
		{"Issues are tracked in Jira.", "Issue tracking moved to Linear.", true},
		{"Docs live in Confluence.", "Docs moved to Notion.", true},
	} {
		if got := Alternatives(c.older, c.newer); got != c.want {
			t.Errorf("Alternatives(%q, %q) = %v, want %v", c.older, c.newer, got, c.want)
		}
	}
}
