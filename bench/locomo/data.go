//go:build bench

package main

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// wantSHA256 is the checksum of locomo10.zip as the LoCoMo repository
// (snap-research/locomo, data/locomo10.zip) publishes it. The harness
// reads no other file: figures from another version would not compare.
const wantSHA256 = "5c342973da4b45c12583c9fc7594d6410880f5aba2c491a0db09db262c906fb5"

// conversation is one LoCoMo conversation: its sessions in order and its
// questions.
type conversation struct {
	name     string // the file's name without .json: "26"
	sessions []session
	qa       []question
}

type session struct {
	number int
	date   time.Time // the day it happened (LoCoMo gives the minute too)
	turns  []turn
}

type turn struct {
	dia     string // "D1:3", canonical (see canonicalDia)
	speaker string
	text    string
	caption string // the BLIP caption of a shared image, if any
}

type question struct {
	text     string
	category int
	evidence []string // canonical dia IDs
}

// readZip checks the archive's checksum and reads every conversation in
// it, sorted by name. The checksum is returned for the report.
func readZip(file string, want string) ([]conversation, string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(data)
	got := hex.EncodeToString(sum[:])
	if want != "" && got != want {
		return nil, got, fmt.Errorf("%s: sha256 %s, want %s (the LoCoMo release's locomo10.zip)", file, got, want)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, got, fmt.Errorf("%s: %w", file, err)
	}
	var convs []conversation
	for _, f := range zr.File {
		if f.FileInfo().IsDir() || path.Ext(f.Name) != ".json" {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, got, err
		}
		raw, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, got, fmt.Errorf("%s: %w", f.Name, err)
		}
		c, err := parseConversation(strings.TrimSuffix(path.Base(f.Name), ".json"), raw)
		if err != nil {
			return nil, got, fmt.Errorf("%s: %w", f.Name, err)
		}
		convs = append(convs, c)
	}
	if len(convs) == 0 {
		return nil, got, fmt.Errorf("%s: no conversation (*.json) in the archive", file)
	}
	slices.SortFunc(convs, func(a, b conversation) int { return strings.Compare(a.name, b.name) })
	return convs, got, nil
}

var sessionKey = regexp.MustCompile(`^session_(\d+)$`)

// sessionDate is how LoCoMo writes a session's time: "1:56 pm on 8 May, 2023".
const sessionDate = "3:04 pm on 2 January, 2006"

// parseConversation reads one conversation file: speaker_a, speaker_b,
// session_N and session_N_date_time, and qa.
func parseConversation(name string, raw []byte) (conversation, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		return conversation{}, err
	}
	c := conversation{name: name}
	for key, val := range doc {
		m := sessionKey.FindStringSubmatch(key)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		var turns []struct {
			Speaker     string `json:"speaker"`
			DiaID       string `json:"dia_id"`
			Text        string `json:"text"`
			BlipCaption string `json:"blip_caption"`
		}
		if err := json.Unmarshal(val, &turns); err != nil {
			return c, fmt.Errorf("%s: %w", key, err)
		}
		var when string
		if err := json.Unmarshal(doc[key+"_date_time"], &when); err != nil {
			return c, fmt.Errorf("%s_date_time: %w", key, err)
		}
		t, err := time.Parse(sessionDate, strings.TrimSpace(when))
		if err != nil {
			return c, fmt.Errorf("%s_date_time %q: %w", key, when, err)
		}
		s := session{number: n, date: time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)}
		for _, tr := range turns {
			dia := canonicalDia(tr.DiaID)
			if len(dia) != 1 {
				return c, fmt.Errorf("%s: dialog id %q", key, tr.DiaID)
			}
			s.turns = append(s.turns, turn{dia: dia[0], speaker: tr.Speaker, text: tr.Text, caption: tr.BlipCaption})
		}
		if len(s.turns) > 0 {
			c.sessions = append(c.sessions, s)
		}
	}
	slices.SortFunc(c.sessions, func(a, b session) int { return a.number - b.number })
	var qa []struct {
		Question string          `json:"question"`
		Category int             `json:"category"`
		Evidence json.RawMessage `json:"evidence"`
	}
	if err := json.Unmarshal(doc["qa"], &qa); err != nil {
		return c, fmt.Errorf("qa: %w", err)
	}
	for _, q := range qa {
		var ev []string
		_ = json.Unmarshal(q.Evidence, &ev) // a few questions have none
		var dias []string
		for _, e := range ev {
			for _, d := range canonicalDia(e) {
				if !slices.Contains(dias, d) {
					dias = append(dias, d)
				}
			}
		}
		c.qa = append(c.qa, question{text: q.Question, category: q.Category, evidence: dias})
	}
	if len(c.sessions) == 0 {
		return c, fmt.Errorf("no session")
	}
	return c, nil
}

var diaPattern = regexp.MustCompile(`D(\d+)\s*:\s*(\d+)`)

// canonicalDia reads the dialog IDs in s: LoCoMo's evidence lists hold a
// few "D8:6; D9:17" and "D30:05", which name the turns D8:6, D9:17 and
// D30:5.
func canonicalDia(s string) []string {
	var out []string
	for _, m := range diaPattern.FindAllStringSubmatch(s, -1) {
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[2])
		out = append(out, fmt.Sprintf("D%d:%d", a, b))
	}
	return out
}
