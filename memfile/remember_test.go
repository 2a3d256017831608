package memfile_test

import (
	"testing"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// TestRememberWeighsEveryTier: a remembered entry carries its weight for
// its tier on its day at once, as Score gives it, floor included.
func TestRememberWeighsEveryTier(t *testing.T) {
	cfg := memfile.DefaultConfig()
	day := fxDay("2026-11-29")
	for _, tc := range []struct {
		tier, importance int
		want             memfile.Weight
	}{
		{1, 5, 500},
		{1, 4, 400},
		{2, 3, 300}, // fresh: freshness 1.00
		{2, 1, 100},
		{2, 5, 500},
	} {
		is := is.New(t)
		f := memfile.New(cfg)
		e, isNew, err := f.Remember(memfile.NewEntry{Tier: tc.tier, Importance: tc.importance, Date: day, Text: "Chose SQLite."}, cfg)
		is.NoErr(err)
		is.True(isNew)
		is.True(e.HasWeight)
		is.Equal(e.Weight, tc.want)
		is.Equal(e.Weight, memfile.Score(*e, tc.tier, day, cfg).Weight)
	}
}

func TestRememberRefusesWhatAddRefuses(t *testing.T) {
	is := is.New(t)
	f := memfile.New(memfile.DefaultConfig())
	_, _, err := f.Remember(memfile.NewEntry{Tier: 1, Importance: 2, Text: "x"}, memfile.DefaultConfig())
	is.True(err != nil)
}

// TestForecastEntryAgreesWithForecast: the one-entry forecast is the
// file's forecast for that entry.
func TestForecastEntryAgreesWithForecast(t *testing.T) {
	is := is.New(t)
	cfg := memfile.DefaultConfig()
	today := fxDay("2026-11-29")
	f, _ := fxParse(t, fxDoc("", fxEntry(2, fxAgo(3), "api", "Routine fix.")+fxEntry(3, fxAgo(40), "db", "Old work."), ""))
	deps := memfile.Forecast(f, today, cfg, 60)
	is.True(len(deps) > 0)
	for _, d := range deps {
		got, ok := memfile.ForecastEntry(d.Entry, today, cfg, 60)
		is.True(ok)
		is.Equal(got, d)
	}
	_, ok := memfile.ForecastEntry(deps[0].Entry, today, cfg, deps[0].Days-1)
	is.True(!ok) // not within fewer days
}

// TestLevelRangesFollowLevelFor: the ranges the template and `why` print
// are the ones LevelFor applies.
func TestLevelRangesFollowLevelFor(t *testing.T) {
	is := is.New(t)
	is.Equal(memfile.LevelRanges("%s (%s obs)", " | "), "EMERGING (1-2 obs) | DEVELOPING (3-5 obs) | ESTABLISHED (6+ obs)")
	is.Equal(memfile.LevelFor(2), memfile.Emerging)
	is.Equal(memfile.LevelFor(3), memfile.Developing)
	is.Equal(memfile.LevelFor(5), memfile.Developing)
	is.Equal(memfile.LevelFor(6), memfile.Established)
}
