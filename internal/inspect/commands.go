package inspect

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
)

// Maintain is `bimri-hook maintain`: the session-end pass now, without
// counting a session, and its report; dryRun changes nothing.
func Maintain(w io.Writer, st *store.Store, today time.Time, cfg memfile.Config, deep, dryRun bool) error {
	opt := memfile.Options{Deep: deep}
	if deep {
		opt.ArchivedEntries = st.ArchivedEntries()
	}
	if dryRun {
		read, err := st.Read()
		if err != nil {
			return err
		}
		_, rep := memfile.Maintain(read.File, today, cfg, opt)
		PrintReport(w, rep, true)
		return nil
	}
	var rep memfile.Report
	res, err := st.Update(func(tx *store.Tx) error {
		rep = tx.Maintain(today, cfg, opt)
		return nil
	})
	if err != nil {
		return err
	}
	PrintReport(w, rep, false)
	if res.Notice != "" {
		fmt.Fprintln(w, res.Notice)
	}
	return nil
}

// PrintFound prints what search found as search always has, the fields
// of a memfile.Hit, in JSON (an empty list, never null) or as text.
func PrintFound(w io.Writer, found []Recalled, asJSON bool) error {
	hits := []memfile.Hit{}
	for _, r := range found {
		hits = append(hits, memfile.Hit{Where: r.Where, ID: r.ID, Date: r.Date, Tags: r.Tags, Text: r.Text, ArchivedOn: r.ArchivedOn, Reason: r.Reason})
	}
	if !asJSON {
		PrintHits(w, hits)
		return nil
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(hits)
}
