package memfile_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// The protocol's lookup table, every row at both of its ends, written out
// by hand from the issue: 0-1 -> 1.0, 2-3 -> 0.8, 4-5 -> 0.5, 6-10 -> 0.35,
// 11-15 -> 0.2, 16-20 -> 0.15, 21+ -> 0.1.
var freshnessRows = []struct {
	days int
	want int // hundredths
}{
	{-3, 100}, // a date in the future counts as 0 days
	{0, 100},
	{1, 100},
	{2, 80},
	{3, 80},
	{4, 50},
	{5, 50},
	{6, 35},
	{10, 35},
	{11, 20},
	{15, 20},
	{16, 15},
	{20, 15},
	{21, 10},
	{100, 10},
	{100000, 10},
}

func TestFreshnessTable(t *testing.T) {
	for _, row := range freshnessRows {
		t.Run(fmt.Sprintf("days=%d", row.days), func(t *testing.T) {
			is := is.New(t)
			is.Equal(memfile.Freshness(row.days), row.want)
		})
	}
}

// TestScoreFollowsTable scores an entry of every importance at every
// boundary through Score itself, with the date really that many days before
// today, so the day count and the table are tested together.
func TestScoreFollowsTable(t *testing.T) {
	cfg := memfile.DefaultConfig()
	for _, row := range freshnessRows {
		if row.days > 1000 {
			continue
		}
		for imp := 1; imp <= 5; imp++ {
			t.Run(fmt.Sprintf("days=%d/imp=%d", row.days, imp), func(t *testing.T) {
				is := is.New(t)
				e := memfile.Entry{Importance: imp, Date: fxToday.AddDate(0, 0, -row.days)}
				s := memfile.Score(e, 2, fxToday, cfg)
				want := imp * row.want
				floored := imp >= 4 && want < 400
				if floored {
					want = 400
				}
				is.Equal(s.Days, max(row.days, 0)) // future dates count as 0
				is.Equal(s.Freshness, row.want)
				is.Equal(int(s.Raw), imp*row.want)
				is.Equal(int(s.Weight), want)
				is.Equal(s.Floored, floored)
			})
		}
	}
}

func TestScoreExamples(t *testing.T) {
	cfg := memfile.DefaultConfig()
	for _, tc := range []struct {
		name       string
		tier, imp  int
		daysAgo    int
		want       string
		floored    bool
		ruleSubstr string
	}{
		{"threshold exactly: 3 x 0.5", 2, 3, 4, "1.5", false, "table"},
		{"3 x 0.35 rounds up", 2, 3, 6, "1.1", false, "table"},
		{"2 x 0.8", 2, 2, 3, "1.6", false, "table"},
		{"1 x 0.15", 2, 1, 16, "0.2", false, "table"},
		{"5 today", 2, 5, 0, "5.0", false, "table"},
		{"5 at 2 days is exactly the floor, not lifted", 2, 5, 2, "4.0", false, "table"},
		{"4 at 2 days lifted to the floor", 2, 4, 2, "4.0", true, "floor"},
		{"5 a year old stays at the floor", 2, 5, 365, "4.0", true, "floor"},
		{"3 a year old has no floor", 2, 3, 365, "0.3", false, "table"},
		{"tier 1 never decays", 1, 5, 365, "5.0", false, "tier 1"},
		{"tier 1 low importance does not decay either", 1, 2, 365, "2.0", false, "tier 1"},
		{"tier 1 importance 4", 1, 4, 40, "4.0", false, "tier 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			e := memfile.Entry{Importance: tc.imp, Date: fxToday.AddDate(0, 0, -tc.daysAgo)}
			s := memfile.Score(e, tc.tier, fxToday, cfg)
			is.Equal(s.Weight.String(), tc.want)
			is.Equal(s.Floored, tc.floored)
			is.True(strings.Contains(s.Rule, tc.ruleSubstr))
		})
	}
}

func TestScoreFloorFromConfig(t *testing.T) {
	is := is.New(t)
	cfg := memfile.DefaultConfig()
	cfg.Floor = 300
	old := memfile.Entry{Importance: 5, Date: fxToday.AddDate(0, 0, -60)}
	is.Equal(memfile.Score(old, 2, fxToday, cfg).Weight.String(), "3.0")
	low := memfile.Entry{Importance: 3, Date: fxToday.AddDate(0, 0, -60)}
	is.Equal(memfile.Score(low, 2, fxToday, cfg).Weight.String(), "0.3") // the floor is for 4 and 5 only
}

func TestScoreFutureDate(t *testing.T) {
	is := is.New(t)
	e := memfile.Entry{Importance: 3, Date: fxToday.AddDate(0, 0, 3)}
	s := memfile.Score(e, 2, fxToday, memfile.DefaultConfig())
	is.Equal(s.Days, 0)
	is.Equal(s.Weight.String(), "3.0")
}

func TestWeightString(t *testing.T) {
	for _, tc := range []struct {
		w    memfile.Weight
		want string
	}{
		{0, "0.0"},
		{4, "0.0"},
		{5, "0.1"}, // half rounds up
		{10, "0.1"},
		{14, "0.1"},
		{15, "0.2"},
		{35, "0.4"}, // 1 x 0.35
		{45, "0.5"}, // 3 x 0.15
		{94, "0.9"},
		{95, "1.0"},
		{105, "1.1"}, // 3 x 0.35
		{140, "1.4"},
		{149, "1.5"},
		{150, "1.5"},
		{175, "1.8"}, // 5 x 0.35
		{400, "4.0"},
		{500, "5.0"},
		{1234, "12.3"},
		{994, "9.9"}, // the last weight of one whole digit
		{995, "10.0"},
		{99995, "1000.0"},
	} {
		t.Run(fmt.Sprint(int(tc.w)), func(t *testing.T) {
			is := is.New(t)
			is.Equal(tc.w.String(), tc.want)
		})
	}
}

func TestDaysBetween(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	minus10 := time.FixedZone("UTC-10", -10*3600)
	plus14 := time.FixedZone("UTC+14", 14*3600)
	at := func(y int, m time.Month, d, h, min int, loc *time.Location) time.Time {
		return time.Date(y, m, d, h, min, 0, 0, loc)
	}
	for _, tc := range []struct {
		name        string
		date, today time.Time
		want        int
	}{
		{"same day", fxDay("2026-11-29"), fxDay("2026-11-29"), 0},
		{"same day, morning to night", at(2026, 11, 29, 0, 1, time.UTC), at(2026, 11, 29, 23, 59, time.UTC), 0},
		{"one minute across midnight is a day", at(2026, 11, 28, 23, 59, time.UTC), at(2026, 11, 29, 0, 0, time.UTC), 1},
		{"month end", fxDay("2026-01-31"), fxDay("2026-02-01"), 1},
		{"30-day month end", fxDay("2026-04-30"), fxDay("2026-05-01"), 1},
		{"year end", fxDay("2025-12-31"), fxDay("2026-01-01"), 1},
		{"across a year", fxDay("2025-12-20"), fxDay("2026-01-10"), 21},
		{"leap February", fxDay("2024-02-28"), fxDay("2024-03-01"), 2},
		{"plain February", fxDay("2025-02-28"), fxDay("2025-03-01"), 1},
		{"leap year", fxDay("2024-01-01"), fxDay("2025-01-01"), 366},
		{"spring forward in New York", at(2026, 3, 7, 12, 0, ny), at(2026, 3, 9, 12, 0, ny), 2},
		{"fall back in New York", at(2026, 10, 31, 23, 30, ny), at(2026, 11, 2, 0, 30, ny), 2},
		// Each date is read in its own zone: the entry was written on
		// March 1st and today is March 2nd, even though today's instant is
		// earlier than the entry's.
		{"zones: each side's own calendar date", at(2026, 3, 1, 23, 30, minus10), at(2026, 3, 2, 0, 30, plus14), 1},
		{"zones: same calendar date, far-apart zones", at(2026, 3, 1, 23, 0, minus10), at(2026, 3, 1, 1, 0, plus14), 0},
		{"future", fxDay("2026-12-02"), fxDay("2026-11-29"), -3},
		{"far past (more than 292 years)", fxDay("1000-01-01"), fxDay("2026-01-01"), 374739},
		{"far future (more than 292 years)", fxDay("2026-01-01"), fxDay("1000-01-01"), -374739},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(memfile.DaysBetween(tc.date, tc.today), tc.want)
		})
	}
}

func TestScoreFarPastIsOldest(t *testing.T) {
	is := is.New(t)
	e := memfile.Entry{Importance: 3, Date: fxDay("0001-01-01")}
	s := memfile.Score(e, 2, fxDay("9999-12-31"), memfile.DefaultConfig())
	is.True(s.Days > 21)
	is.Equal(s.Weight.String(), "0.3")
}
