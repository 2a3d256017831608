package wiring

import (
	"testing"

	"github.com/matryer/is"
	"github.com/tidwall/gjson"
)

// Install adds bimri-hook's handlers to Cursor's flat lists beside the
// user's own; twice changes nothing; uninstall gives back the bytes, and
// a file install created is to be removed.
func TestInstallCursorKeepsTheUsersHooks(t *testing.T) {
	is := is.New(t)
	user := "{\n  \"version\": 1,\n  \"hooks\": {\n    \"sessionStart\": [\n      {\n        \"command\": \"./audit.sh\"\n      }\n    ]\n  }\n}\n"
	c := Command{Binary: "/opt/bin/bimri-hook"}
	out, r, changed, err := Cursor.Install([]byte(user), c, Receipt{})
	is.NoErr(err)
	is.True(changed)
	doc := gjson.ParseBytes(out)
	is.Equal(doc.Get("hooks.sessionStart.0.command").Str, "./audit.sh")
	is.Equal(doc.Get("hooks.sessionStart.1.command").Str, `"/opt/bin/bimri-hook" hook cursor`)
	is.Equal(doc.Get("hooks.sessionEnd.0.timeout").Int(), int64(10))
	w, err := Cursor.Inspect(out)
	is.NoErr(err)
	events, _ := w.Events(Cursor.Events)
	is.Equal(events, []string{"sessionStart", "sessionEnd"})

	again, _, changed, err := Cursor.Install(out, c, r)
	is.NoErr(err)
	is.True(!changed)
	is.Equal(string(again), string(out))

	back, remove, _, err := Cursor.Uninstall(out, &r)
	is.NoErr(err)
	is.True(!remove)
	is.Equal(string(back), user)

	fresh, r, _, err := Cursor.Install(nil, c, Receipt{})
	is.NoErr(err)
	is.Equal(gjson.GetBytes(fresh, "version").Int(), int64(1))
	_, remove, _, err = Cursor.Uninstall(fresh, &r)
	is.NoErr(err)
	is.True(remove)
}
