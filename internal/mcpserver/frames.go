package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxFrame bounds one line from the client: a tool call is a few
// kilobytes; a longer line is answered and skipped unheld.
const maxFrame = 4 << 20

// JSON-RPC 2.0's error codes for a frame that is not a message.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// filterFrames stands before the SDK's transport, which ends the session
// on a frame it cannot decode: it passes each line the SDK's decoder takes
// and answers any other with a JSON-RPC error, then reads on.
func filterFrames(in io.Reader, out io.Writer) (io.ReadCloser, io.WriteCloser) {
	pr, pw := io.Pipe()
	lw := &lockedWriter{w: out}
	go pump(in, lw, pw)
	return pr, lw
}

// lockedWriter keeps the SDK's lines and the filter's whole.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Close leaves the client's stream open, as the SDK's stdio transport does.
func (l *lockedWriter) Close() error { return nil }

// pump copies the lines that pass to pw until the stream ends or the SDK
// stops.
func pump(in io.Reader, out io.Writer, pw *io.PipeWriter) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if tooLong {
			reject(out, codeParseError, nil, fmt.Sprintf("frame larger than %d bytes, skipped", maxFrame))
		} else if len(bytes.TrimSpace(line)) > 0 {
			if code, id, why := check(line); code != 0 {
				reject(out, code, id, why)
			} else if _, werr := pw.Write(append(line, '\n')); werr != nil {
				return
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			pw.CloseWithError(err)
			return
		}
	}
}

// readLine reads one line without its newline; one past maxFrame is read
// to its end and dropped (tooLong).
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > maxFrame+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), tooLong, err
	}
}

// check says what is wrong with a frame: 0 when the SDK takes it, else a
// JSON-RPC error code, the request's id if readable, and why.
func check(line []byte) (code int, id any, why string) {
	if !utf8.Valid(line) {
		return codeParseError, nil, "frame is not UTF-8"
	}
	if !json.Valid(line) {
		return codeParseError, nil, "frame is not one JSON value"
	}
	msgs := []json.RawMessage{line}
	if json.Unmarshal(line, &msgs) == nil && len(msgs) == 0 {
		return codeInvalidRequest, nil, "null, or an empty batch"
	}
	for _, m := range msgs {
		if _, err := jsonrpc.DecodeMessage(m); err != nil {
			return codeInvalidRequest, requestID(m), "not a JSON-RPC 2.0 message: " + err.Error()
		}
	}
	return 0, nil, ""
}

// requestID is a frame's id when it is one JSON-RPC allows (a string or a
// number), for the error to answer; else nil, which answers with null.
func requestID(frame []byte) any {
	var m struct{ ID json.RawMessage }
	if json.Unmarshal(frame, &m) == nil && len(m.ID) > 0 && strings.ContainsRune(`"-0123456789`, rune(m.ID[0])) {
		return m.ID
	}
	return nil
}

func reject(out io.Writer, code int, id any, why string) {
	data, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": why}})
	_, _ = out.Write(append(data, '\n'))
}
