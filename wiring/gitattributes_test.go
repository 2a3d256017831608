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
