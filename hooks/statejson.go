package hooks

// The session state's JSON, written and read by hand: the same bytes
// json.Marshal writes for a sessionState, and the same state
// json.Unmarshal reads from them, without encoding/json. Its first use in
// a process (reflection over the two structs, and its code paged in)
// costs a hook that keeps session state about a millisecond and some 45
// page faults here, and Stop, SessionEnd, a new session's SessionStart
// and a recalling prompt all keep it. TestStateJSONMatchesEncodingJSON and FuzzStateJSON compare
// both directions with encoding/json, field by field through reflection,
// so a field added to either struct fails them until it is written here.

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/bimri/bimri-hook/transcript"
	"github.com/tidwall/gjson"
)

// encodeState is json.Marshal(st), byte for byte.
func encodeState(st sessionState) []byte {
	t := st.Transcript
	b := make([]byte, 0, 320+len(t.FirstPrompt)+len(t.RememberError)+32*(len(t.FilesChanged)+len(t.Pending)+len(st.Recalled))+64*len(t.PendingChanges))
	b = append(b, `{"transcript":{"FirstPrompt":`...)
	b = appendJSONStringEscaping(b, t.FirstPrompt, true)
	b = appendIntField(b, "Prompts", int64(t.Prompts))
	b = append(b, `,"FilesChanged":`...)
	b = appendStringList(b, t.FilesChanged)
	b = appendIntField(b, "FileChanges", int64(t.FileChanges))
	b = append(b, `,"PendingChanges":`...)
	b = appendChanges(b, t.PendingChanges)
	b = appendIntField(b, "RememberAttempts", int64(t.RememberAttempts))
	b = appendIntField(b, "RememberCalls", int64(t.RememberCalls))
	b = appendIntField(b, "RememberFailed", int64(t.RememberFailed))
	b = appendBoolField(b, "RememberDenied", t.RememberDenied)
	b = append(b, `,"RememberError":`...)
	b = appendJSONStringEscaping(b, t.RememberError, true)
	b = append(b, `,"Pending":`...)
	b = appendStringList(b, t.Pending)
	b = appendIntField(b, "ChangesSinceRemember", int64(t.ChangesSinceRemember))
	b = appendIntField(b, "PromptsSinceRemember", int64(t.PromptsSinceRemember))
	b = appendIntField(b, "Offset", t.Offset)
	b = appendBoolField(b, "Skipped", t.Skipped)
	b = appendIntField(b, "BadLines", int64(t.BadLines))
	b = append(b, '}')
	b = appendBoolField(b, "nudged", st.Nudged)
	b = appendIntField(b, "blocks", int64(st.Blocks))
	b = appendBoolField(b, "recorded", st.Recorded)
	b = appendBoolField(b, "counted", st.Counted)
	if st.Told { // omitempty, as the rest below
		b = appendBoolField(b, "told", true)
	}
	if st.Reported != 0 {
		b = appendIntField(b, "reported", int64(st.Reported))
	}
	if st.Advised {
		b = appendBoolField(b, "advised", true)
	}
	if len(st.Recalled) > 0 {
		b = append(b, `,"recalled":`...)
		b = appendStringList(b, st.Recalled)
	}
	return append(b, '}')
}

func appendIntField(b []byte, name string, v int64) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return strconv.AppendInt(b, v, 10)
}

func appendBoolField(b []byte, name string, v bool) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return strconv.AppendBool(b, v)
}

// appendChanges writes a []transcript.Change as json.Marshal does.
func appendChanges(b []byte, list []transcript.Change) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, c := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"ID":`...)
		b = appendJSONStringEscaping(b, c.ID, true)
		b = append(b, `,"Path":`...)
		b = appendJSONStringEscaping(b, c.Path, true)
		b = appendBoolField(b, "BeforeRemember", c.BeforeRemember)
		b = append(b, '}')
	}
	return append(b, ']')
}

// changesOf reads a JSON array of changes; anything else is nil, as
// stringListOf reads.
func changesOf(r gjson.Result) []transcript.Change {
	if !r.IsArray() {
		return nil
	}
	list := []transcript.Change{}
	r.ForEach(func(_, v gjson.Result) bool {
		var c transcript.Change
		v.ForEach(func(key, v gjson.Result) bool {
			switch key.Str {
			case "ID":
				c.ID = v.Str
			case "Path":
				c.Path = v.Str
			case "BeforeRemember":
				c.BeforeRemember = v.Type == gjson.True
			}
			return true
		})
		list = append(list, c)
		return true
	})
	return list
}

// appendStringList writes a []string as json.Marshal does: null for nil.
func appendStringList(b []byte, list []string) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONStringEscaping(b, s, true)
	}
	return append(b, ']')
}

// decodeState is what json.Unmarshal reads from data into a fresh
// sessionState (a damaged state reads as far as json.Unmarshal gets).
// What encodeState wrote is read directly: the state read back is
// accepted only when encodeState writes exactly data again. Anything
// else (a state an older version or a person wrote) goes through
// json.Unmarshal.
func decodeState(data []byte) sessionState {
	if len(data) == 0 {
		return sessionState{} // no state yet: as json.Unmarshal leaves it, refusing empty input
	}
	if st, ok := decodeOwnState(data); ok {
		return st
	}
	var st sessionState
	_ = json.Unmarshal(data, &st)
	return st
}

func decodeOwnState(data []byte) (sessionState, bool) {
	var st sessionState
	if !gjson.ValidBytes(data) {
		return st, false
	}
	// One pass over each object's keys (Result.Get would scan the object
	// again for every field). Keys encodeState does not write, and values
	// of another type, make the check below fail.
	t := &st.Transcript
	gjson.ParseBytes(data).ForEach(func(key, v gjson.Result) bool {
		switch key.Str {
		case "transcript":
			v.ForEach(func(key, v gjson.Result) bool {
				switch key.Str {
				case "FirstPrompt":
					t.FirstPrompt = v.Str
				case "Prompts":
					t.Prompts = int(v.Int())
				case "FilesChanged":
					t.FilesChanged = stringListOf(v)
				case "FileChanges":
					t.FileChanges = int(v.Int())
				case "PendingChanges":
					t.PendingChanges = changesOf(v)
				case "RememberAttempts":
					t.RememberAttempts = int(v.Int())
				case "RememberCalls":
					t.RememberCalls = int(v.Int())
				case "RememberFailed":
					t.RememberFailed = int(v.Int())
				case "RememberDenied":
					t.RememberDenied = v.Type == gjson.True
				case "RememberError":
					t.RememberError = v.Str
				case "Pending":
					t.Pending = stringListOf(v)
				case "ChangesSinceRemember":
					t.ChangesSinceRemember = int(v.Int())
				case "PromptsSinceRemember":
					t.PromptsSinceRemember = int(v.Int())
				case "Offset":
					t.Offset = v.Int()
				case "Skipped":
					t.Skipped = v.Type == gjson.True
				case "BadLines":
					t.BadLines = int(v.Int())
				}
				return true
			})
		case "nudged":
			st.Nudged = v.Type == gjson.True
		case "blocks":
			st.Blocks = int(v.Int())
		case "recorded":
			st.Recorded = v.Type == gjson.True
		case "counted":
			st.Counted = v.Type == gjson.True
		case "told":
			st.Told = v.Type == gjson.True
		case "reported":
			st.Reported = int(v.Int())
		case "advised":
			st.Advised = v.Type == gjson.True
		case "recalled":
			st.Recalled = stringListOf(v)
		}
		return true
	})
	return st, bytes.Equal(encodeState(st), data)
}

// stringListOf reads a JSON array of strings; anything else (null,
// missing) is nil, which encodeState then writes otherwise than data
// unless data said null.
func stringListOf(r gjson.Result) []string {
	if !r.IsArray() {
		return nil
	}
	list := []string{}
	r.ForEach(func(_, v gjson.Result) bool {
		list = append(list, v.Str)
		return true
	})
	return list
}

// encodeList is json.Marshal(list), byte for byte: the patterns-asked
// state is such a list.
func encodeList(list []string) []byte {
	return appendStringList(nil, list)
}

// decodeList is what json.Unmarshal reads from data into a fresh
// []string, read directly when data is what encodeList writes (checked
// by writing it again), through json.Unmarshal otherwise.
func decodeList(data []byte) []string {
	if len(data) == 0 {
		return nil // as json.Unmarshal leaves it, refusing empty input
	}
	if gjson.ValidBytes(data) {
		if list := stringListOf(gjson.ParseBytes(data)); list != nil && bytes.Equal(encodeList(list), data) {
			return list
		}
	}
	var list []string
	_ = json.Unmarshal(data, &list)
	return list
}
