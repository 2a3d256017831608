package memfile

import (
	"testing"
	"time"

	"github.com/matryer/is"
)

func TestSupersede(t *testing.T) {
	is := is.New(t)
	f := New(DefaultConfig())
	day := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	old1, _, err := f.Add(NewEntry{Tier: 1, Importance: 5, Date: day, Tags: []string{"deadline"}, Text: "The deadline is March 1."})
	is.NoErr(err)
	old2, _, err := f.Add(NewEntry{Tier: 2, Importance: 4, Date: day, Tags: []string{"deadline"}, Text: "The deadline moved to March 15."})
	is.NoErr(err)
	now, _, err := f.Add(NewEntry{Tier: 1, Importance: 5, Date: day.AddDate(0, 1, 0), Tags: []string{"deadline"}, Text: "The deadline is April 2."})
	is.NoErr(err)

	// Refused, and nothing changes.
	for _, bad := range [][]string{{now.ID}, {old1.ID, old1.ID}, {"ffffffff"}, {}} {
		_, err := f.Supersede(bad, now.ID)
		is.True(err != nil)
	}
	_, err = f.Supersede([]string{old1.ID}, "ffffffff")
	is.True(err != nil)
	is.Equal(len(f.Entries(1))+len(f.Entries(2)), 3)

	gone, err := f.Supersede([]string{old1.ID, old2.ID}, now.ID)
	is.NoErr(err)
	is.Equal(len(gone), 2)
	is.Equal(gone[0].Tier, 1) // Tier 1 included
	is.Equal(gone[0].Entry.ID, old1.ID)
	is.Equal(gone[1].Reason, "superseded by "+now.ID)
	e, tier := f.Find(now.ID)
	is.True(e != nil && tier == 1)
	e, _ = f.Find(old1.ID)
	is.True(e == nil)
}
