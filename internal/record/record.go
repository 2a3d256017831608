// Package record carries out remember (in its forms), forget and revive
// for the CLI, the MCP tools and browse alike, so every route checks the
// same arguments and follows the same rules.
package record

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/bimri/bimri-hook/internal/inspect"
	"github.com/bimri/bimri-hook/internal/recall"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/privacy"
	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/wiring"
)

// AgentLockWait is how long a change the agent asks for waits for the
// lock: its Bash tool and MCP calls allow minutes, unlike hooks.
const AgentLockWait = 45 * time.Second

// Request is one remember call, in any of its forms. Zero or empty means
// not given: each form refuses what it has no use for, so nothing the
// caller said is silently dropped.
type Request struct {
	Text       string
	Importance int      // 1-5 (3 for a new entry)
	Tier       int      // 1, 2 or 3 (a pattern); 2 for a new entry
	Tags       string   // comma-separated, as given
	Keywords   []string // words a later question would use that the text does not; each may be a list
	Replaces   []string // a consolidation: the entries the text sums up
	Promote    string   // a promotion: the Tier 2 entry to move to Tier 1
	Supersedes []string // a supersession: the entries the new one overrides
	BothHold   []string // the supersession question answered no: the new entry, then the older ones
	Agent      string   // memfile.Entry.Agent: "" for Claude Code or a person
}

// Form is which of remember's forms a Request is.
type Form int

const (
	formEntry       Form = iota // record one entry
	formConsolidate             // replace entries with one summary
	formPromote                 // move a Tier 2 entry to Tier 1
	formPattern                 // write a pattern's sentence (Tier 3)
	formRevive                  // not remember's: an archived entry brought back (Revive)
	formSupersede               // record one entry that overrides older ones
	formBothHold                // entries that all still hold: none supersedes another
	formForget                  // not remember's: an entry or pattern moved to the archive (Forget)
)

// Names word the errors and questions of one route: the CLI names flags
// and shows commands that begin with Remember, MCP names fields and shows
// tool calls.
type Names struct {
	MCP      bool
	Remember string
}

var (
	// CLINames word the errors of `bimri-hook remember`.
	CLINames = Names{Remember: "bimri-hook remember"}
	MCPNames = Names{MCP: true}
)

// CommandNamesIn are the names of binary's remember in the workspace
// root, or the global memory, as the hooks name it, so the permission
// rule and the plugin's approval allow the calls they show.
func CommandNamesIn(binary, root string, global bool) Names {
	prefix := wiring.Command{Binary: binary}.Remember()
	if global {
		prefix += " --global"
	} else {
		prefix += " --dir " + wiring.ShellWord(root)
	}
	return Names{Remember: prefix}
}

// examples are a whole call of each form, on the CLI and in MCP.
var examples = map[Form][2]string{
	formEntry: {`bimri-hook remember "Chose SQLite for storage."`, `{"text": "Chose SQLite for storage.", "importance": 4}`},
	formConsolidate: {`bimri-hook remember --replaces 3f9a1c2b,77e0d4a1 -- "Login: sessions in Postgres, tests added."`,
		`{"replaces": ["3f9a1c2b", "77e0d4a1"], "text": "Login: sessions in Postgres, tests added."}`},
	formPattern: {`bimri-hook remember --tier 3 --tags testing -- "The user asks for a regression test with every bug fix."`,
		`{"tier": 3, "tags": ["testing"], "text": "The user asks for a regression test with every bug fix."}`},
	formSupersede: {`bimri-hook remember --supersedes 3f9a1c2b -- "Removed Redis: sessions now live in a Postgres table."`,
		`{"supersedes": ["3f9a1c2b"], "text": "Removed Redis: sessions now live in a Postgres table."}`},
}

// pick is cli's words, or mcp's on the MCP route.
func (n Names) pick(cli, mcp string) string {
	return inspect.Pick(n.MCP, mcp, cli)
}

func (n Names) field(name string) string {
	return n.pick("--"+name, strconv.Quote(strings.ReplaceAll(name, "-", "_")))
}

func (n Names) form(name string) string {
	return n.pick("remember --"+name, "remember with "+n.field(name))
}

// Check says which form r is, and refuses what the form cannot take
// before any file is opened. n words the errors.
func Check(r Request, n Names) (Form, error) {
	text := strings.TrimSpace(r.Text)
	if r.Importance != 0 && (r.Importance < 1 || r.Importance > 5) {
		return 0, fmt.Errorf("%s %d is not a whole number from 1 to 5", n.field("importance"), r.Importance)
	}
	if r.Tier != 0 && (r.Tier < 1 || r.Tier > 3) {
		return 0, fmt.Errorf("%s %d is not 1, 2 or 3", n.field("tier"), r.Tier)
	}
	if kws := keywords(r.Keywords); r.Keywords != nil {
		if len(kws) == 0 {
			return 0, fmt.Errorf("%s is empty: give two or three words a later question would use that the text does not, or leave it out", n.field("keywords"))
		}
		for _, k := range kws {
			if !strings.ContainsFunc(k, func(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }) {
				return 0, fmt.Errorf("%s: keyword %q has no letter or digit", n.field("keywords"), k)
			}
		}
		if _, err := memfile.Keywords(kws); err != nil {
			return 0, fmt.Errorf("%s: %w", n.field("keywords"), err)
		}
	}
	// both-hold and promote take nothing else; the other forms need text.
	form, what := formEntry, "remember needs the entry's text"
	others := text != "" || r.Importance != 0 || r.Tier != 0 || r.Tags != "" || r.Keywords != nil || len(r.Replaces) > 0
	switch {
	case len(r.BothHold) > 0:
		if others || strings.TrimSpace(r.Promote) != "" || len(r.Supersedes) > 0 {
			return 0, fmt.Errorf("%s NEW,OLD takes nothing else: it only records that those entries all still hold", n.form("both-hold"))
		}
		if len(ids(r.BothHold)) < 2 {
			return 0, fmt.Errorf("%s needs two or more entry IDs: the new entry, then the older ones that still hold beside it", n.form("both-hold"))
		}
		return formBothHold, nil
	case len(r.Supersedes) > 0:
		if len(r.Replaces) > 0 || strings.TrimSpace(r.Promote) != "" {
			return 0, fmt.Errorf("%s records a new entry: it takes no %s or %s", n.form("supersedes"), n.field("replaces"), n.field("promote"))
		}
		if r.Tier == 3 {
			return 0, fmt.Errorf("%s replaces entries, not patterns: drop %s 3", n.form("supersedes"), n.field("tier"))
		}
		if text != "" && len(ids(r.Supersedes)) == 0 {
			return 0, fmt.Errorf("%s needs the IDs of the entries it overrides", n.form("supersedes"))
		}
		form, what = formSupersede, n.form("supersedes")+" needs the new entry's text"
	case strings.TrimSpace(r.Promote) != "":
		if others {
			return 0, fmt.Errorf("%s ID takes nothing else: the entry keeps its text, importance and tags", n.form("promote"))
		}
		return formPromote, nil
	case len(r.Replaces) > 0:
		if r.Tier != 0 || r.Importance != 0 {
			return 0, fmt.Errorf("%s takes the importance (the highest), the date (the newest) and the tier from the entries it replaces: drop %s and %s",
				n.form("replaces"), n.field("importance"), n.field("tier"))
		}
		if text != "" && len(ids(r.Replaces)) < 2 {
			return 0, errors.New("consolidation takes two or more entry IDs")
		}
		form, what = formConsolidate, n.form("replaces")+" needs the summary's text"
	case r.Tier == 3:
		if r.Importance != 0 {
			return 0, fmt.Errorf("a pattern (%s 3) has no importance: its level follows how many entries carry its tags", n.field("tier"))
		}
		if r.Keywords != nil {
			return 0, fmt.Errorf("a pattern (%s 3) has no keywords: recall finds it by its sentence and tags", n.field("tier"))
		}
		if text != "" && len(memfile.SplitTags(r.Tags)) == 0 {
			return 0, fmt.Errorf("a pattern needs at least one tag (%s), the entries it is about", n.field("tags"))
		}
		form, what = formPattern, n.form("tier")+" 3 needs the pattern's sentence"
	}
	if text == "" {
		return 0, fmt.Errorf("%s, e.g. %s", what, n.pick(examples[form][0], examples[form][1]))
	}
	return form, nil
}

// split splits a list as given at commas, once private spans (which may
// hold one) are gone, into its parts, trimmed and passed through each.
func split(list []string, each func(string) string) []string {
	var out []string
	for _, s := range list {
		for _, k := range strings.Split(privacy.StripPrivate(privacy.DropInvisible(s)), ",") {
			if k = each(strings.TrimSpace(k)); k != "" {
				out = append(out, k)
			}
		}
	}
	return out
}

// keywords are a keyword list's items; memfile's Add cleans each.
func keywords(list []string) []string { return split(list, func(k string) string { return k }) }

// ids are the entry IDs of a list as given.
func ids(list []string) []string { return split(list, strings.ToLower) }

// Done is what a change did, for report.go and the MCP tools.
type Done struct {
	Form         Form
	Entry        *memfile.Entry   // the entry recorded, made, promoted or revived
	Pattern      *memfile.Pattern // the pattern written
	Tier         int              // where Entry is now
	IsNew        bool             // a new entry or pattern (not one updated); a consolidation's summary
	Gone         []memfile.Removal
	Predecessors []*memfile.Entry // older entries it may supersede: the agent is asked once
	Held         []*memfile.Entry // formBothHold: the older entries that hold beside Entry
	Memory       string           // the memory file's path
	Archive      string           // the archive's name
	Notice       string           // a repair the user should hear about

	today  time.Time // for how long it stays
	config memfile.Config
	names  Names
}

// Remember carries out r on store, dated today under cfg.
func Remember(st *store.Store, today time.Time, cfg memfile.Config, r Request, n Names) (Done, error) {
	form, err := Check(r, n)
	if err != nil {
		return Done{}, err
	}
	// Each tag is cleaned before it is lower-cased, so a key given as a
	// tag is found in its own letters.
	tags := memfile.NormalizeTags(split([]string{r.Tags}, privacy.Clean))
	return commit(st, Done{Form: form, today: today, config: cfg, names: n}, func(d *Done, tx *store.Tx) error {
		var err error
		switch form {
		case formPromote:
			d.Entry, err = tx.File.Promote(strings.ToLower(strings.TrimSpace(r.Promote)))
			d.Tier = 1
			return err
		case formConsolidate:
			return consolidate(tx, d, r, tags)
		case formBothHold:
			es, err := tx.File.HoldTogether(ids(r.BothHold))
			if err != nil {
				return err
			}
			d.Entry, d.Held = es[0], es[1:]
			_, d.Tier = tx.File.Find(d.Entry.ID)
			return nil
		case formPattern:
			d.Pattern, d.IsNew, err = tx.File.WritePattern(tags, r.Text, today)
			d.Tier = 3
			return err
		}
		return remember(tx, d, r, tags)
	})
}

// likelyPredecessors are the lasting entries of f that e, new, may
// supersede: those that look alike, and older ones that share a subject
// tag and name another thing of e's kind (recall.Alternatives: "Chose
// GitHub Actions for CI." before "Chose GitLab CI for CI."), less those
// the agent said hold beside it.
func likelyPredecessors(f *memfile.File, e *memfile.Entry) []*memfile.Entry {
	out := f.LikelyPredecessors(e)
	if e == nil || e.Importance < 4 || len(e.Tags) == 0 {
		return out
	}
	for _, o := range f.TierEntries() {
		if o != e && o.Importance >= 4 && !o.Date.After(e.Date) && !slices.Contains(out, o) &&
			memfile.CouldSupersede(e, o) && recall.Alternatives(o.Text, e.Text) {
			out = append(out, o)
		}
	}
	return out
}

// remember records r's text as a new entry and archives the entries it
// supersedes, in one transaction. What r does not give, the entry takes
// from those: their highest importance, their tags, Tier 1 when one was
// there (a lasting decision stays one), and always their keywords, since
// a question asked of the old decision is one the new answers.
func remember(tx *store.Tx, d *Done, r Request, tags []string) error {
	olds := ids(r.Supersedes)
	imp, tier := r.Importance, cmp.Or(r.Tier, 2)
	var oldTags, oldKeywords []string
	for _, id := range olds {
		if e, t := tx.File.Find(id); e != nil { // Supersede names one missing
			if r.Importance == 0 {
				imp = max(imp, e.Importance)
			}
			if r.Tier == 0 && t == 1 {
				tier = 1
			}
			oldTags, oldKeywords = append(oldTags, e.Tags...), append(oldKeywords, e.Keywords...)
		}
	}
	imp = cmp.Or(imp, 3)
	if r.Tier == 0 && imp < 4 {
		tier = 2 // Tier 1 holds importance 4-5 only
	}
	if len(tags) == 0 {
		tags = memfile.NormalizeTags(oldTags)
	}
	e, isNew, err := tx.File.Remember(memfile.NewEntry{Tier: tier, Importance: imp, Date: d.today, Tags: tags, Keywords: keywords(r.Keywords), Text: r.Text, Agent: r.Agent}, d.config)
	if err != nil {
		return err
	}
	d.Entry, d.IsNew = e, isNew
	if len(olds) == 0 {
		if _, d.Tier = tx.File.Find(e.ID); isNew {
			d.Predecessors = likelyPredecessors(tx.File, e)
		}
		return nil
	}
	e.Keywords = memfile.NormalizeTags(append(e.Keywords, oldKeywords...))
	if d.Gone, err = tx.File.Supersede(olds, e.ID); err != nil {
		return err
	}
	// The same text recorded today already keeps its tier, unless what it
	// overrides was in Tier 1.
	if _, t := tx.File.Find(e.ID); r.Tier == 0 && tier == 1 && t == 2 && e.Importance >= 4 {
		if d.Entry, err = tx.File.Promote(e.ID); err != nil {
			return err
		}
	}
	_, d.Tier = tx.File.Find(d.Entry.ID)
	tx.Archive = append(tx.Archive, d.Gone...)
	return nil
}

// consolidate replaces the entries r names with one summary, which keeps
// their highest importance, their tags and keywords and the newest date.
func consolidate(tx *store.Tx, d *Done, r Request, tags []string) error {
	var err error
	if d.Entry, d.Gone, err = tx.File.Consolidate(ids(r.Replaces), r.Text); err != nil {
		return err
	}
	d.IsNew = true
	kws, err := memfile.Keywords(keywords(r.Keywords))
	if err != nil {
		return err
	}
	d.Entry.Tags = memfile.NormalizeTags(append(d.Entry.Tags, tags...))
	d.Entry.Keywords = memfile.NormalizeTags(append(d.Entry.Keywords, kws...))
	_, d.Tier = tx.File.Find(d.Entry.ID)
	d.Entry.Weigh(d.Tier, d.today, d.config)
	tx.Archive = append(tx.Archive, d.Gone...)
	return nil
}

// DefaultForgetReason is the archive's reason when none is given.
const DefaultForgetReason = "forgotten on request"

// needID refuses an empty ID for forget or revive, in n's words.
func needID(id, verb, what string, n Names) (string, error) {
	id = strings.ToLower(strings.TrimSpace(id))
	if id == "" {
		return "", fmt.Errorf("%s needs the %s of %s (%s)", verb, n.pick("ID", `"id"`), what, n.pick("see bimri-hook show or search", "memory and recall show IDs"))
	}
	return id, nil
}

// Forget moves the entry, pattern or unread note id to the archive, with
// reason (DefaultForgetReason when empty).
func Forget(st *store.Store, id, reason string, n Names) (Done, error) {
	id, err := needID(id, "forget", "the entry or pattern", n)
	if err != nil {
		return Done{}, err
	}
	return commit(st, Done{Form: formForget, names: n}, func(d *Done, tx *store.Tx) error {
		a, ok := tx.File.Remove(id, cmp.Or(strings.TrimSpace(reason), DefaultForgetReason))
		if !ok {
			return fmt.Errorf("no entry or pattern with ID %q in %s", id, st.Names().Memory)
		}
		d.Gone, d.Tier = []memfile.Removal{a}, a.Tier
		tx.Archive = append(tx.Archive, a)
		return nil
	})
}

// Revive brings the archived entry id back into Tier 2, dated today.
func Revive(st *store.Store, today time.Time, cfg memfile.Config, id string, n Names) (Done, error) {
	id, err := needID(id, "revive", "an archived entry", n)
	if err != nil {
		return Done{}, err
	}
	recs, err := st.ReadArchive()
	if err != nil {
		return Done{}, err
	}
	rec, ok := inspect.LastRecord(recs, id)
	if !ok {
		return Done{}, fmt.Errorf("no archived entry with ID %q in %s", id, st.Names().Archive)
	}
	return commit(st, Done{Form: formRevive, Tier: 2, today: today, config: cfg, names: n}, func(d *Done, tx *store.Tx) error {
		d.Entry, err = tx.File.Revive(rec, today)
		if err == nil {
			d.Entry.Weigh(2, today, cfg)
		}
		return err
	})
}

// commit runs change on st and gives back d as it left it, with the
// files' names and the store's notice.
func commit(st *store.Store, d Done, change func(d *Done, tx *store.Tx) error) (Done, error) {
	d.Memory, d.Archive = st.Path(st.Names().Memory), st.Names().Archive
	res, err := st.Update(func(tx *store.Tx) error { return change(&d, tx) })
	d.Notice = res.Notice
	return d, err
}
