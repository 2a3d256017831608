package wiring

import (
	"testing"

	"github.com/matryer/is"
)

func TestGitAttributes(t *testing.T) {
	const ours = "bimri.md merge=bimri\nbimri-archive.md merge=union\n"
	cases := []struct {
		name, in, want string
	}{
		{name: "no file", in: "", want: ours},
		{name: "other lines", in: "*.go text eol=lf\n# vendored\nvendor/** -diff\n", want: "*.go text eol=lf\n# vendored\nvendor/** -diff\n" + ours},
		{name: "no final newline", in: "*.png binary", want: "*.png binary\n" + ours},
		{name: "crlf", in: "*.go text\r\n", want: "*.go text\r\nbimri.md merge=bimri\r\nbimri-archive.md merge=union\r\n"},
		{name: "done", in: "*.go text\n" + ours + "*.md diff=markdown\n", want: "*.go text\n" + ours + "*.md diff=markdown\n"},
		{name: "done with other attributes", in: "bimri.md text merge=bimri\n\"bimri-archive.md\"  -diff  merge=union  \n", want: "bimri.md text merge=bimri\n\"bimri-archive.md\"  -diff  merge=union  \n"},
		{name: "half done", in: "bimri-archive.md merge=union\n", want: "bimri-archive.md merge=union\nbimri.md merge=bimri\n"},
		{name: "other driver", in: "bimri.md merge=union\nbimri-archive.md merge=union\n", want: "bimri.md merge=union\nbimri-archive.md merge=union\nbimri.md merge=bimri\n"},
		{name: "unset later", in: ours + "bimri.md -merge\n", want: ours + "bimri.md -merge\nbimri.md merge=bimri\n"},
		{name: "commented out", in: "# bimri.md merge=bimri\n", want: "# bimri.md merge=bimri\n" + ours},
		{name: "other path", in: "docs/bimri.md merge=bimri\n", want: "docs/bimri.md merge=bimri\n" + ours},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			out, changed := GitAttributes([]byte(tc.in))
			is.Equal(string(out), tc.want)
			is.Equal(changed, tc.in != tc.want)

			again, changed := GitAttributes(out)
			is.True(!changed) // idempotent
			is.Equal(string(again), string(out))
		})
	}
}

func TestRemoveGitAttributes(t *testing.T) {
	const ours = "bimri.md merge=bimri\nbimri-archive.md merge=union\n"
	cases := []struct {
		name, in, want string
	}{
		{name: "only ours", in: ours, want: ""},
		{name: "none", in: "", want: ""},
		{name: "others kept", in: "*.go text eol=lf\n" + ours + "*.md diff=markdown\n", want: "*.go text eol=lf\n*.md diff=markdown\n"},
		{name: "crlf", in: "*.go text\r\nbimri.md merge=bimri\r\nbimri-archive.md merge=union\r\n", want: "*.go text\r\n"},
		{name: "no final newline", in: "*.png binary\nbimri.md merge=bimri", want: "*.png binary\n"},
		{name: "extra spaces", in: "  bimri.md\tmerge=bimri  \n", want: ""},
		{name: "person's lines with more attributes", in: "bimri.md text merge=bimri\nbimri-archive.md -diff merge=union\n", want: "bimri.md text merge=bimri\nbimri-archive.md -diff merge=union\n"},
		{name: "other drivers and paths", in: "bimri.md merge=union\ndocs/bimri.md merge=bimri\n# bimri.md merge=bimri\n", want: "bimri.md merge=union\ndocs/bimri.md merge=bimri\n# bimri.md merge=bimri\n"},
		{name: "twice", in: ours + ours, want: ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			out, changed := RemoveGitAttributes([]byte(tc.in))
			is.Equal(string(out), tc.want)
			is.Equal(changed, tc.in != tc.want)

			again, changed := RemoveGitAttributes(out)
			is.True(!changed) // idempotent
			is.Equal(string(again), string(out))
		})
	}
}

// Removing what GitAttributes added gives back the file it started from,
// when that file ended in a line break.
func TestGitAttributesRoundTrip(t *testing.T) {
	for _, in := range []string{"", "*.go text eol=lf\n", "*.go text\r\n*.png binary\r\n", "bimri.md text merge=bimri\n"} {
		is := is.New(t)
		added, _ := GitAttributes([]byte(in))
		out, _ := RemoveGitAttributes(added)
		is.Equal(string(out), in)
	}
}
