package memfile

import (
	"fmt"
	"time"
)

// Weight is a composite weight in hundredths (3.5 is 350): integers keep
// the threshold test exact.
type Weight int

// String shows a weight with one decimal, rounding half up.
func (w Weight) String() string {
	tenths := (int(w) + 5) / 10
	return fmt.Sprintf("%d.%d", tenths/10, tenths%10)
}

// freshnessBand is one row of the protocol's lookup table.
type freshnessBand struct {
	maxDays    int // inclusive upper bound of the band
	multiplier int // hundredths
}

// freshnessTable is the protocol's table, read, never computed, so people
// can check it by eye.
var freshnessTable = []freshnessBand{
	{1, 100},
	{3, 80},
	{5, 50},
	{10, 35},
	{15, 20},
	{20, 15},
}

const oldestFreshness = 10 // 21+ days

// freshness is the multiplier, in hundredths, for an entry days old (a
// negative age counts as 0).
func freshness(days int) int {
	for _, band := range freshnessTable {
		if days <= band.maxDays {
			return band.multiplier
		}
	}
	return oldestFreshness
}

// DaysBetween counts calendar days from date to today, in Unix seconds:
// Time.Sub saturates at about 292 years.
func DaysBetween(date, today time.Time) int {
	return daysBefore(date, civilUnix(today))
}

// daysBefore is DaysBetween for today's civilUnix, worked out once.
func daysBefore(date time.Time, today int64) int {
	return int((today - civilUnix(date)) / (24 * 60 * 60))
}

// civilUnix is the Unix time of t's calendar date.
func civilUnix(t time.Time) int64 { return civil(t).Unix() }

// civil drops all but the date, so day arithmetic never meets DST.
func civil(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Scoring explains one entry's weight, for commands to show.
type Scoring struct {
	Tier       int
	Importance int
	Days       int
	Freshness  int    // hundredths; 100 for Tier 1
	Raw        Weight // importance x freshness
	Weight     Weight // after the floor
	Floored    bool   // the floor lifted the weight
	Rule       string // "tier 1 never decays", "floor", "table"
}

// Score computes an entry's weight in a tier on a day under cfg.
func Score(e Entry, tier int, today time.Time, cfg Config) Scoring {
	s := Scoring{Tier: tier, Importance: e.Importance, Days: max(DaysBetween(e.Date, today), 0)}
	if tier == 1 {
		s.Freshness = 100
		s.Raw = Weight(e.Importance * 100)
		s.Weight = s.Raw
		s.Rule = "tier 1 never decays"
		return s
	}
	s.Freshness = freshness(s.Days)
	s.Raw = Weight(e.Importance * s.Freshness)
	s.Weight = s.Raw
	s.Rule = "freshness table"
	if e.Importance >= 4 && s.Raw < cfg.Floor {
		s.Weight = cfg.Floor
		s.Floored = true
		s.Rule = "floor for importance 4 and 5"
	}
	return s
}
