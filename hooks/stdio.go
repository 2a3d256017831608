package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// ReadInput reads all of r, at most maxInput bytes, waiting at most wait.
// A terminal is refused at once rather than waited on.
func ReadInput(r io.Reader, wait time.Duration) ([]byte, error) {
	if f, ok := r.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			return nil, errors.New("hook input must come on stdin as JSON, not from a terminal (try bimri-hook simulate)")
		}
	}
	var data []byte
	var err error
	done := make(chan struct{})
	go func() { // data and err are read only once done is closed
		data, err = io.ReadAll(io.LimitReader(r, maxInput+1))
		close(done)
	}()
	select {
	case <-done:
		if err != nil {
			return nil, fmt.Errorf("read hook input: %w", err)
		}
		if len(data) > maxInput {
			return nil, fmt.Errorf("hook input is larger than %d bytes", maxInput)
		}
		return data, nil
	case <-time.After(wait):
		return nil, fmt.Errorf("no hook input on stdin after %s", wait)
	}
}

// Write prints the answer as Claude Code reads it: one JSON object on one
// line, or plain text, or nothing.
func (out Output) Write(w io.Writer) error {
	switch {
	case out.JSON != nil:
		// Whole or not at all; no HTML escaping, so "<private>" reaches
		// the model as written.
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out.JSON); err != nil {
			return err
		}
		_, err := w.Write(buf.Bytes())
		return err
	case out.Text != "":
		_, err := fmt.Fprintln(w, out.Text)
		return err
	}
	return nil
}
