package mergedriver

import (
	"fmt"
	"io"

	"github.com/bimri/bimri-hook/memfile"
)

// Print tells the person running git merge what the merge driver
// decided that they may want to check. A merge with nothing to check says
// nothing, as git's own clean merges do.
func Print(w io.Writer, name string, rep memfile.MergeReport, noBase bool, cfgErr error) {
	if cfgErr != nil {
		fmt.Fprintf(w, "%s: merged with the default config: %v\n", name, cfgErr)
	}
	if noBase {
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
}
