package transcript

import (
	"bytes"
	"os"
	"testing"

	"github.com/bimri/bimri-hook/privacy"
	"github.com/tidwall/gjson"
)

// addLineByGet is addLine as first written, each member found with its
// own gjson.Get: the definition membersOf must read as.
func (s *Summary) addLineByGet(line []byte) {
	if line = bytes.TrimSpace(line); len(line) == 0 || line[0] != '{' || tooDeep(line) || !gjson.ValidBytes(line) {
		return
	}
	switch gjson.GetBytes(line, "type").String() {
	case "user":
		f := gjson.GetManyBytes(line, "isMeta", "isCompactSummary", "isSidechain", "message.content")
		if f[2].Bool() {
			return
		}
		if len(s.Pending)+len(s.PendingChanges) > 0 && f[3].IsArray() {
			s.settle(f[3])
		}
		if f[0].Bool() || f[1].Bool() {
			return
		}
		text, ok := promptText(f[3])
		if !ok {
			return
		}
		s.Prompts++
		s.PromptsSinceRemember++
		if s.FirstPrompt == "" {
			s.FirstPrompt = shorten(privacy.Clean(text), maxPromptRunes)
		}
	case "assistant":
		s.addAssistant(gjson.GetBytes(line, "message.content"))
	}
}

// checkMembers reads lines both ways, one reader each, and compares.
func checkMembers(t *testing.T, lines [][]byte) {
	t.Helper()
	var byGet, byPass Summary
	for _, l := range lines {
		byGet.addLineByGet(l)
		byPass.addLine(l)
		if !equalSummaries(byGet, byPass) {
			t.Fatalf("after %q:\nby Get  %+v\none pass %+v", l, byGet, byPass)
		}
	}
}

func TestMembersReadAsGet(t *testing.T) {
	sample, err := os.ReadFile("testdata/sample.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(sample, []byte("\n"))
	lines = append(lines,
		[]byte(`{"type":"user","type":"assistant","message":{"content":"first type wins"}}`),
		[]byte(`{"message":{"content":"message first"},"type":"user","isMeta":false}`),
		[]byte(`{"type":"user","isSidechain":true,"message":{"content":"a subagent's"}}`),
		[]byte(`{"type":"user","isMeta":"true","message":{"content":"meta as a string"}}`),
		[]byte(`{"type":"user","isCompactSummary":1,"message":{"content":"compacted"}}`),
		[]byte(`{"typ\u0065":"user","message":{"content":"an escaped key"}}`),
		[]byte(`{"type":"user","message":"not an object"}`),
		[]byte(`{"type":"user","message":{"content":"one"},"message":{"content":"two"}}`),
		[]byte(`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"bimri-hook remember x"}}]}}`),
		[]byte(`{"type":"user","message":{"content":[{"type":"text","text":"a prompt while a call is pending"}]}}`),
	)
	checkMembers(t, lines)
}

func FuzzMembersAsGet(f *testing.F) {
	sample, err := os.ReadFile("testdata/sample.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	for _, l := range bytes.Split(sample, []byte("\n")) {
		f.Add(l)
	}
	f.Add([]byte(prompt("a") + remember + toolUses(write("/p/a"), edit("/p/b")) + toolResult + compaction))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkMembers(t, bytes.Split(data, []byte("\n")))
	})
}
