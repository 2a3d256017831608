//go:build bench

package main

import (
	_ "embed"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/memfile"
)

//go:embed testdata/other-words.tsv
var otherWordsTSV string

// figures are what one agent behaviour and one way of asking measured.
type figures struct {
	lasting, whole, compact int               // lasting entries in the view, whole or compact
	missing                 []string          // the lasting keys not in the view
	staleInView             int               // superseded entries shown in the view (marked or not)
	unmarkedInView          int               // of unmarked, those the view shows unmarked
	unmarkedOnlyRecalled    int               // of unmarked, those only a recall shows unmarked
	unmarked                []string          // superseded entries shown without a mark, in the view or a recall
	found                   map[string][3]int // kind -> [in the view, in view + recall, in view + BM25]
	missed                  []string          // the questions view + recall did not answer
	asked                   map[string]int    // kind -> questions
	noneRecalled            int
	recalls, worthReviving  int
	viewChars               int
	view                    string
	median                  time.Duration
}

// kinds of question in the order they are reported.
var kinds = []string{"same", "other", "current", "week", "WEEK", "none"}

func measure(l *lived, qs []question, a *asked) figures {
	f := figures{found: map[string][3]int{}, asked: map[string]int{}, viewChars: a.viewChars,
		recalls: a.recalls, worthReviving: a.worthReviving, view: a.view}
	for _, k := range lastingKeys() {
		id := l.ids[k]
		line, ok := a.inView[id]
		switch {
		case !ok:
			f.missing = append(f.missing, k)
			continue
		case strings.Contains(line, memfile.Inert(l.texts[k])):
			f.whole++
		default:
			f.compact++
		}
		f.lasting++
	}
	unmarked := map[string]bool{}
	for _, k := range staleKeys() {
		id := l.ids[k]
		if line, ok := a.inView[id]; ok {
			f.staleInView++
			if !strings.Contains(line, memfile.PossiblySupersededMark) {
				unmarked[k] = true
				f.unmarkedInView++
			}
		}
		for _, text := range a.recallText {
			if line, ok := viewLines(text)[id]; ok && !strings.Contains(line, "superseded by") {
				if !unmarked[k] {
					f.unmarkedOnlyRecalled++
				}
				unmarked[k] = true
				break
			}
		}
	}
	for k := range unmarked {
		f.unmarked = append(f.unmarked, k)
	}
	slices.Sort(f.unmarked)
	for i, q := range qs {
		kind := q.kind
		if q.id == "WEEK" {
			kind = "WEEK"
		}
		f.asked[kind]++
		if q.kind == "none" {
			if len(a.recalled[i]) > 0 {
				f.noneRecalled++
			}
			continue
		}
		need := 1
		if q.id == "WEEK" {
			need = weekAnswered
		}
		view, all, baseline := 0, 0, 0
		for _, id := range q.answers {
			inView := holds(a.inView, a.view, id, l.textOf(id))
			if inView {
				view++
			}
			if inView || holds(viewLines(a.recallText[i]), a.recallText[i], id, l.textOf(id)) {
				all++
			}
			if inView || slices.Contains(a.bm25[i], id) {
				baseline++
			}
		}
		c := f.found[kind]
		if view >= need {
			c[0]++
		}
		if all >= need {
			c[1]++
		} else if kind != "same" {
			f.missed = append(f.missed, q.id+" "+strconv.Quote(q.text))
		}
		if baseline >= need {
			c[2]++
		}
		f.found[kind] = c
	}
	times := slices.Clone(a.times)
	slices.Sort(times)
	f.median = times[len(times)/2]
	return f
}

func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%d of %d (%.0f%%)", a, b, 100*float64(a)/float64(b))
}

var kindNames = map[string]string{
	"same":    "same words (F, D, S as it stands, DL)",
	"other":   "other words, lasting (F, D)",
	"current": "other words, as it stands now (S, DL)",
	"week":    "other words, one item of last week (W1-W5)",
	"WEEK":    "all of last week (answered: 3 of W1-W5)",
}

// report prints the figures of one agent behaviour, without and with the
// lexicon (with is nil where the tree has no lexicon).
func report(w io.Writer, l *lived, behaviour string, without, with *figures) {
	fmt.Fprintf(w, "### Agent that %s\n\n", behaviour)
	fmt.Fprintf(w, "remember asked about the overridden entry for %d of %d reversals; about other lasting entries %d times\n\n", l.asked, l.reverse, l.alarms)
	n := len(lastingKeys())
	fmt.Fprintf(w, "- (a) lasting facts and decisions in the view: %d of %d (%d whole, %d compact)", without.lasting, n, without.whole, without.compact)
	if len(without.missing) > 0 {
		fmt.Fprintf(w, "; missing: %s", strings.Join(without.missing, " "))
	}
	fmt.Fprintf(w, "\n- (b) superseded entries shown without their mark: %d of %d", len(without.unmarked), len(staleKeys()))
	if len(without.unmarked) > 0 {
		fmt.Fprintf(w, " (%s; %d in the view, %d only in recall answers)", strings.Join(without.unmarked, " "), without.unmarkedInView, without.unmarkedOnlyRecalled)
	}
	if with != nil && len(with.unmarked) != len(without.unmarked) {
		fmt.Fprintf(w, "; with the lexicon %d", len(with.unmarked))
	}
	fmt.Fprintf(w, "; in the view, marked or not: %d\n", without.staleInView)
	fmt.Fprintf(w, "- (g) the view: %d characters (UTF-16)\n\n", without.viewChars)
	cols := []string{"questions", "view", "view + recall"}
	if with != nil {
		cols = append(cols, "view + recall, lexicon")
	}
	cols = append(cols, "view + BM25, as many items")
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(cols, " | "), strings.Repeat("---|", len(cols)))
	for _, k := range kinds[:5] {
		c := without.found[k]
		row := []string{kindNames[k], pct(c[0], without.asked[k]), pct(c[1], without.asked[k])}
		if with != nil {
			row = append(row, pct(with.found[k][1], with.asked[k]))
		}
		row = append(row, pct(c[2], without.asked[k]))
		fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
	}
	if len(without.missed) > 0 {
		fmt.Fprintf(w, "\nin other words, not answered by view + recall: %s\n", strings.Join(without.missed, "; "))
	}
	fmt.Fprintf(w, "\n- (e) prompts with no answer that got a recall: %d of %d", without.noneRecalled, without.asked["none"])
	if with != nil {
		fmt.Fprintf(w, "; with the lexicon %d of %d", with.noneRecalled, with.asked["none"])
	}
	fmt.Fprintf(w, "\n- (f) recall answers that said \"worth reviving\": %d of %d", without.worthReviving, without.recalls)
	if with != nil {
		fmt.Fprintf(w, "; with the lexicon %d of %d", with.worthReviving, with.recalls)
	}
	fmt.Fprintf(w, "\n- hook time per prompt, in process (moves with the machine's load): median %.2f ms", float64(without.median)/1e6)
	if with != nil {
		fmt.Fprintf(w, "; with the lexicon %.2f ms", float64(with.median)/1e6)
	}
	fmt.Fprintf(w, "\n\n")
}

// gist is how much of an entry's text, from its start, a line must
// quote to count as giving it: the week's digest quotes the start of a
// day's entries without their IDs.
const gist = 40

// holds says whether a context gives the entry id: its line (whole or
// compact, by ID), or the start of its text (a digest line).
func holds(lines map[string]string, text, id, entryText string) bool {
	if _, ok := lines[id]; ok {
		return true
	}
	r := []rune(memfile.Inert(entryText))
	return len(r) >= gist && strings.Contains(text, string(r[:gist]))
}
