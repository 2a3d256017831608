package hooks

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
)

// stateAlphabet holds what a JSON writer must treat with care: quotes,
// backslashes, control bytes, HTML's < > &, U+2028, U+FFFD, invalid UTF-8.
var stateAlphabet = []string{"a", "Z", " ", "é", "日", "\"", "\\", "\n", "\t", "\x00", "\x1f", "<", ">", "&", "\u2028", "\u2029", "\ufffd", "\xff", "\xe2\x80", "/"}

// randomValue fills v, whatever its type, through reflection: a field
// added to sessionState or transcript.Summary gets values too, so the
// comparisons below fail until encodeState and decodeState know it.
func randomValue(rng *rand.Rand, v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				randomValue(rng, v.Field(i))
			}
		}
	case reflect.String:
		s := ""
		for range rng.IntN(6) {
			s += stateAlphabet[rng.IntN(len(stateAlphabet))]
		}
		v.SetString(s)
	case reflect.Int, reflect.Int64:
		v.SetInt([]int64{0, 1, -1, 7, 1 << 40, -1 << 62}[rng.IntN(6)])
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 1)
	case reflect.Slice:
		switch rng.IntN(3) {
		case 0: // nil
		case 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		default:
			v.Set(reflect.MakeSlice(v.Type(), 1+rng.IntN(3), 4))
			for i := range v.Len() {
				randomValue(rng, v.Index(i))
			}
		}
	default:
		panic("randomValue: no case for " + v.Kind().String())
	}
}

func TestStateJSONMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		var st sessionState
		randomValue(rng, reflect.ValueOf(&st).Elem())
		want, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		if got := encodeState(st); string(got) != string(want) {
			t.Fatalf("encodeState(%+v)\n got %s\nwant %s", st, got, want)
		}
		checkDecode(t, want)
	}
}

// checkDecode says decodeState reads data as json.Unmarshal does.
func checkDecode(t *testing.T, data []byte) {
	t.Helper()
	var want sessionState
	_ = json.Unmarshal(data, &want)
	if got := decodeState(data); !reflect.DeepEqual(got, want) {
		t.Fatalf("decodeState(%q)\n got %+v\nwant %+v", data, got, want)
	}
}

// States encodeState would not have written go through json.Unmarshal.
func TestDecodeStateReadsOthersAsEncodingJSON(t *testing.T) {
	for _, data := range []string{
		``, `{`, `null`, `[]`, `{}`, `"x"`,
		`{"transcript":{"FirstPrompt":"<b>","Prompts":2},"nudged":true}`, // not HTML-escaped
		`{"transcript":{"Prompts":1.5},"blocks":2}`,
		`{"Nudged":true,"BLOCKS":3}`, // keys in another case
		`{"nudged":true,"nudged":false}`,
		`{"recalled":[]}`, `{"recalled":null}`, `{"recalled":["a",1,null]}`,
		`{"transcript":{"FilesChanged":["a"],"Pending":[]},"advised":"true"}`,
		`{"transcript":{"FirstPrompt":"\ufffd\u00e9"}}`,
		`{"transcript":{"Offset":99999999999999999999}}`,
		"{\"transcript\":{\"FirstPrompt\":\"\xff\"}}",
	} {
		checkDecode(t, []byte(data))
	}
	var st sessionState
	st.Transcript.FirstPrompt, st.Recalled = "x", []string{"a1"}
	own := encodeState(st)
	checkDecode(t, own)
	if _, ok := decodeOwnState(own); !ok {
		t.Fatal("decodeOwnState refuses what encodeState wrote")
	}
}

func TestListJSONMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 1000 {
		var list []string
		randomValue(rng, reflect.ValueOf(&list).Elem())
		want, _ := json.Marshal(list)
		if got := encodeList(list); string(got) != string(want) {
			t.Fatalf("encodeList(%q) = %s, want %s", list, got, want)
		}
		checkDecodeList(t, want)
	}
	for _, data := range []string{``, `null`, `[]`, `{}`, `[1,"a",null]`, `["<"]`, `["a"`, `"a"`, `["\u003c"]`} {
		checkDecodeList(t, []byte(data))
	}
}

func checkDecodeList(t *testing.T, data []byte) {
	t.Helper()
	var want []string
	_ = json.Unmarshal(data, &want)
	if got := decodeList(data); !reflect.DeepEqual(got, want) {
		t.Fatalf("decodeList(%q) = %#v, want %#v", data, got, want)
	}
}

func FuzzStateJSON(f *testing.F) {
	var st sessionState
	st.Transcript.FirstPrompt, st.Transcript.FilesChanged, st.Nudged, st.Recalled = "Fix <the> \"bug\"", []string{"/a/b.go"}, true, []string{"p1"}
	f.Add(encodeState(st))
	f.Add([]byte(`{"transcript":{"Prompts":1.5},"blocks":2}`))
	f.Add([]byte(`{"Nudged":true}`))
	f.Add([]byte(`["p1","p2"]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecode(t, data)
		checkDecodeList(t, data)
		var st sessionState
		if json.Unmarshal(data, &st) == nil {
			want, _ := json.Marshal(st)
			if got := encodeState(st); string(got) != string(want) {
				t.Fatalf("encodeState(%+v)\n got %s\nwant %s", st, got, want)
			}
		}
	})
}

// plainWord must say of eight bytes what testing each one says: every
// byte value at every position, among plain bytes and among others.
func TestPlainWordIsBytewise(t *testing.T) {
	plain := func(b byte, html bool) bool {
		return b >= 0x20 && b < 0x80 && b != '"' && b != '\\' && !(html && (b == '<' || b == '>' || b == '&'))
	}
	for _, html := range []bool{false, true} {
		for _, fill := range []byte{'a', ' ', '~', 0x1f, 0x80, '"', '<'} {
			for pos := range 8 {
				for b := range 256 {
					w := bytes.Repeat([]byte{fill}, 8)
					w[pos] = byte(b)
					want := true
					for _, c := range w {
						want = want && plain(c, html)
					}
					if got := plainWord(string(w), html); got != want {
						t.Fatalf("plainWord(%q, html %v) = %v, bytewise %v", w, html, got, want)
					}
				}
			}
		}
	}
}
