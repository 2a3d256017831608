package privacy

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/internal/slowtest"
	"github.com/lucasjones/reggen"
	"github.com/zricethezav/gitleaks/v8/detect"
)

// Every secret gitleaks' own detector finds, redact removes: the table
// and the way it is used agree with gitleaks. The texts are made from
// each rule's regexp (as gitleaks' tests make theirs), alone and in the
// places a person pastes them: a sentence, an assignment, a quote.
func TestRedactFindsWhatGitleaksFinds(t *testing.T) {
	slowtest.Gate(t) // every gitleaks rule's examples, through both detectors
	cfg := gitleaksConfig(t)
	d := detect.NewDetector(cfg)
	d.MaxDecodeDepth = 0 // bimri-hook does not decode base64 or hex
	contexts := []string{"%s", "the key is %s\n", "export TOKEN=%s\n", `{"value": "%s"}`, "(%s) in the log"}
	found, samples := 0, 0
	for _, r := range gitleaksRules() {
		g, err := reggen.NewGenerator(r.regex)
		if err != nil {
			t.Fatalf("%s: %v", r.id, err)
		}
		for n := range 6 {
			g.SetSeed(int64(n + 1))
			sample := g.Generate(12)
			for _, form := range contexts {
				text := fmt.Sprintf(form, sample)
				samples++
				findings := d.DetectString(text)
				if len(findings) == 0 {
					continue
				}
				found++
				got := redact(text)
				for _, f := range findings {
					if strings.Contains(got, f.Secret) {
						t.Errorf("gitleaks rule %s finds %q in %q, and Redact leaves it: %q", f.RuleID, f.Secret, text, got)
					}
				}
			}
		}
	}
	// Most samples are secrets in gitleaks' eyes (some fail a rule's
	// entropy or allowlist); too few would mean the test tests nothing.
	if found < samples/2 {
		t.Fatalf("gitleaks found secrets in only %d of %d samples", found, samples)
	}
	t.Logf("%d of %d samples held a secret gitleaks finds; Redact removed every one", found, samples)
}

// The rules most texts reach (their keywords are ordinary words) are
// tried only where a keyword stands, and the generic ones only where an
// assignment follows it: a change of gitleaks' patterns that undid that
// would make every hook that stores text slower, silently.
func TestCommonRulesAreTriedAtTheirKeywords(t *testing.T) {
	rules := allRules()
	for _, id := range []string{"generic-api-key", "vault-service-token", "jwt", "twilio-api-key", "mailchimp-api-key"} {
		i := slices.IndexFunc(rules, func(r rule) bool { return r.id == id })
		if i < 0 {
			t.Fatalf("gitleaks has no rule %s", id)
		}
		if r := rules[i]; !r.fromKeyword {
			t.Errorf("%s is not tried at its keywords", id)
		} else if (id == "generic-api-key" && r.assignment == 0) || (id == "mailchimp-api-key" && r.assignment != 0) {
			t.Errorf("%s does not wait for an assignment", id)
		}
	}
	// Ours are all tried at their keywords: each must begin with one.
	for _, r := range rules[len(gitleaksRules()):] {
		if !startsAtKeyword(r.regex, r.keywords) {
			t.Errorf("rule %q is tried at its keywords, and its regex does not begin with one", r.id)
		}
	}
}

// Trying a rule only where its keywords stand (and its gate lets it)
// finds every secret that running the whole regexp over the text finds.
func FuzzAnchoredFindsWhatTheWholePatternFinds(f *testing.F) {
	for _, r := range gitleaksRules() {
		if g, err := reggen.NewGenerator(r.regex); err == nil {
			g.SetSeed(1)
			f.Add("see " + g.Generate(8) + ", then")
		}
	}
	f.Add("the token budget is 10,000 characters; api_key = 'abcdefghij0123456789'")
	f.Add("password:\n  Blue-Elephant-42\nuser: app\nthe secret is\nFAKE0123")
	f.Add("client_secret: |\n  FAKE0123\n and mysql -u root\n -pFAKE")
	f.Add("the API key =x9, the password is: 'abc', my token for prod was set to Q1w2, secret\" := \"x\"")
	f.Fuzz(func(t *testing.T, s string) {
		hits := keywordHits(s)
		rules := allRules()
		for j := 0; j < len(hits); {
			i := int(hits[j].rule)
			var at []int
			for ; j < len(hits) && int(hits[j].rule) == i; j++ {
				at = append(at, int(hits[j].at))
			}
			r := &rules[i]
			if !r.fromKeyword {
				continue
			}
			var got []span
			r.matches(s, at, func(m []int) {
				if sec, ok := r.secret(s, m); ok {
					got = append(got, sec)
				}
			})
			for _, m := range regexp.MustCompile(r.regex).FindAllStringSubmatchIndex(s, -1) {
				if sec, ok := r.secret(s, m); ok && !slices.Contains(got, sec) {
					t.Fatalf("rule %s: the whole pattern finds %q in %q; tries at its keywords found %v", r.id, s[sec.start:sec.end], s, got)
				}
			}
		}
	})
}

// gitleaksRules are the rules of gitleaks_rules.tsv.
func gitleaksRules() []rule {
	return slices.DeleteFunc(slices.Clone(allRules()), func(r rule) bool { return !r.gitleaks })
}

// allRules is every rule of the tables, parsed, gitleaks' first.
func allRules() []rule {
	x := rules()
	out := make([]rule, len(x.texts))
	for i := range out {
		out[i] = *x.rule(i)
	}
	return out
}
