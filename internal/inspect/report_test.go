package inspect

import (
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// TestOneDay: a day away is "1 day", never "1 days", wherever why and
// forecast count days (issue #35).
func TestOneDay(t *testing.T) {
	is := is.New(t)
	today := time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)
	e := memfile.Entry{ID: "E1", Importance: 3, Date: today.AddDate(0, 0, -1), Text: "Chose SQLite."}
	dep := memfile.Departure{Entry: &e, Day: today.AddDate(0, 0, 1), Days: 1, From: 150, To: 90}

	var forecast strings.Builder
	PrintForecast(&forecast, []memfile.Departure{dep}, 1, 100)
	is.True(strings.Contains(forecast.String(), "(in 1 day)"))   // the entry's day
	is.True(strings.Contains(forecast.String(), "next 1 day (")) // the window
	is.True(!strings.Contains(forecast.String(), "1 days"))

	var why strings.Builder
	PrintWhy(&why, e, 2, today, memfile.DefaultConfig())
	is.True(strings.Contains(why.String(), "recorded 2026-03-09, 1 day ago"))
	is.True(strings.Contains(why.String(), "freshness for 1 day ="))
	// An entry the threshold archives tomorrow.
	leaving := memfile.Entry{ID: "E2", Importance: 2, Text: "Fixed a typo."}
	for age := 0; age < 60; age++ {
		leaving.Date = today.AddDate(0, 0, -age)
		if d, ok := memfile.ForecastEntry(&leaving, today, memfile.DefaultConfig(), 60); ok && d.Days == 1 {
			break
		}
	}
	PrintWhy(&why, leaving, 2, today, memfile.DefaultConfig())
	is.True(strings.Contains(why.String(), "(in 1 day, weight"))
	is.True(!strings.Contains(why.String(), "1 days"))
}
