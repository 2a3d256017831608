package memfile

import (
	"testing"
	"time"

	"github.com/matryer/is"
)

// The pass weighs entries without Score (reweight, weightFor); every
// weight must be the one Weigh gives, for each importance, age (future
// dates, every band of the table, undated), tier, floor, and dates in
// zones other than UTC.
func TestReweightIsWeigh(t *testing.T) {
	is := is.New(t)
	today := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	f := New(DefaultConfig())
	var dates []time.Time
	for d := -3; d <= 40; d++ {
		dates = append(dates, today.AddDate(0, 0, -d), today.AddDate(0, 0, -d).Add(23*time.Hour).In(time.FixedZone("east", 13*3600)))
	}
	dates = append(dates, time.Time{}, today.In(time.FixedZone("west", -11*3600)))
	for _, d := range dates {
		for imp := -1; imp <= 7; imp++ {
			for tier := 1; tier <= 2; tier++ {
				e := &Entry{ID: "x", Importance: imp, Date: d, Text: "t"}
				f.Tiers[tier-1].Blocks = append(f.Tiers[tier-1].Blocks, Block{Entry: e})
			}
		}
	}
	for _, floor := range []Weight{0, 150, 400, 600} {
		cfg := DefaultConfig()
		cfg.Floor = floor
		reweight(f, today, cfg)
		for tier := 1; tier <= 2; tier++ {
			for _, e := range f.Entries(tier) {
				want := *e
				want.Weigh(tier, today, cfg)
				is.Equal(*e, want) // weight and HasWeight as Weigh sets them
			}
		}
	}
}
