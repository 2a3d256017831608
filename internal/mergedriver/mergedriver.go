// Package mergedriver is git's merge driver for bimri.md: it merges the
// three versions git gives entry by entry (memfile.MergeFiles) and writes
// the result over ours, as git expects.
package mergedriver

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store/safefile"
)

// Merge merges base, ours and theirs (git's %O %A %B), writes the result
// over ours, and tells w what a person may want to check; name names the
// file in messages, cfgErr why its config did not load.
func Merge(w io.Writer, basePath, oursPath, theirsPath, name string, cfg memfile.Config, cfgErr error) error {
	var files [3]*memfile.File
	for i, side := range []string{"base", "ours", "theirs"} {
		path := []string{basePath, oursPath, theirsPath}[i]
		data, err := safefile.Read(path, memfile.MaxMemorySize)
		if err != nil {
			return fmt.Errorf("merge-driver: read %s: %w", side, err)
		}
		// Without a base (both branches added bimri.md, or it is not a
		// memory file) the merge is a union; ours and theirs that are not
		// memory files are a conflict for git to show.
		if side == "base" && len(bytes.TrimSpace(data)) == 0 {
			continue
		}
		f, _, err := memfile.Parse(data)
		if side == "base" && errors.Is(err, memfile.ErrUnreadable) {
			continue
		}
		if err != nil {
			return fmt.Errorf("merge-driver: %s (%s): %w", side, path, err)
		}
		files[i] = f
	}
	merged, rep := memfile.MergeFiles(files[0], files[1], files[2], cfg)
	if err := safefile.WriteFile(oursPath, memfile.Render(merged), safefile.Options{}); err != nil {
		return fmt.Errorf("merge-driver: write the merged %s: %w", name, err)
	}
	// A merge with nothing to check says nothing, as git's own do.
	if cfgErr != nil {
		fmt.Fprintf(w, "%s: merged with the default config: %v\n", name, cfgErr)
	}
	if files[0] == nil {
		fmt.Fprintf(w, "%s: no common version (both branches added it): kept every entry of both\n", name)
	}
	for _, s := range rep.Split {
		fmt.Fprintf(w, "%s: both branches rewrote entry %s; kept both: %s (ours) and %s (theirs); forget the one that is wrong\n", name, s.ID, s.ID, s.NewID)
	}
	for _, id := range rep.Revived {
		fmt.Fprintf(w, "%s: kept %s: one branch removed it, the other changed it\n", name, id)
	}
	for _, id := range rep.Sentences {
		fmt.Fprintf(w, "%s: both branches rewrote the sentence of pattern %s; kept ours\n", name, id)
	}
	return nil
}
