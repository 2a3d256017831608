//go:build bench

// Package benchwork is what bench/benchrun, which runs the hooks over
// and over, needs to put a workspace back as it was before every run
// (Take records it) and to give SessionEnd a session to read
// (SessionTranscript).
package benchwork

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Files is a folder's regular files: content and modification time by
// slash-separated path relative to the folder.
type Files struct {
	Data   map[string][]byte
	MTimes map[string]time.Time
}

// Take reads every regular file under root. The times matter: the
// recall index is keyed on the archive's size and time, so a file no
// run changed must keep its time.
func Take(root string) (Files, error) {
	s := Files{Data: map[string][]byte{}, MTimes: map[string]time.Time{}}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		s.Data[filepath.ToSlash(rel)] = data
		s.MTimes[filepath.ToSlash(rel)] = info.ModTime()
		return nil
	})
	return s, err
}

// SessionTranscript is a modest session for SessionEnd to read: 20
// prompts with file edits and tool output, about 60 KB, and no remember
// call, so SessionEnd also writes its fallback entry.
func SessionTranscript() []byte {
	var b bytes.Buffer
	output := strings.Repeat("ok ", 600)
	for i := range 20 {
		fmt.Fprintf(&b, `{"type":"user","message":{"role":"user","content":"Step %d: tidy module %d and its tests"}}`+"\n", i, i)
		fmt.Fprintf(&b, `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t%d","name":"Edit","input":{"file_path":"/proj/mod%d.go","old_string":"a","new_string":"b"}}]}}`+"\n", i, i)
		fmt.Fprintf(&b, `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":"%s"}]}}`+"\n", i, output)
	}
	return b.Bytes()
}
