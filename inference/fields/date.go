package fields

import (
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// Dated is a date as the rules found it, with the time of day printed
// beside it ("14:05", or "" when none was).
type Dated struct {
	receipt.Field[time.Time]
	Clock string
}

// SetDate sets a receipt's date and time as FindDate found them; a date not
// found leaves the receipt as it was.
func SetDate(r *receipt.Receipt, d Dated) {
	if !d.Set {
		return
	}
	r.Date = d.Field
	if d.Clock != "" {
		r.Time = receipt.Text{Value: d.Clock, Set: true, Source: d.Source, Confidence: d.Confidence}
	}
}

// FindDate returns the most plausible date on the page, preferring lines
// that say DATE.
func FindDate(lines []Line, loc receipt.Locale, now time.Time) Dated {
	return findDateRepairing(lines, loc, false, now)
}

// dateCand is one date read on a line, scored for how likely it is the
// receipt's own date.
type dateCand struct {
	d     time.Time
	t     string
	score float64
	conf  float64
	box   *receipt.Box
	why   string
	// digits is how sure the date's own characters were read; other
	// marks something else on the line (see dateDigitsConf).
	digits   float64
	other    bool
	repaired bool
	text     string // the date as printed ("24/01/25")
	labelled bool   // on a line labelled date
}

// dateCandidates lists the dates read on the lines, with repair also those
// that cannot be as read once one common digit misreading is undone.
func dateCandidates(lines []Line, loc receipt.Locale, repair bool, now time.Time) []dateCand {
	var cands []dateCand
	pk := packOf(loc)
	for i, l := range lines {
		text := translateMonths(mendDateText(l.Text, loc.DateOrder), pk)
		var found []string
		found = append(found, reDateNum.FindAllString(text, -1)...)
		found = append(found, reDateWord.FindAllString(text, -1)...)
		printed := len(found)
		if repair {
			found = append(found, lostSeparatorDates(text)...)
		}
		for j, s := range found {
			pd, err := receipt.ParseDate(s, loc.DateOrder)
			repaired := j >= printed
			if err != nil || !plausibleDate(pd.Date, now) {
				if !repair {
					continue
				}
				if repaired {
					continue
				}
				if pd, repaired = repairDate(s, loc, now); !repaired {
					continue
				}
			}
			score := 1.0
			why := "a date printed on the page"
			k := strings.ToUpper(l.Text)
			other := pk.LabelsAnotherDate(k) // an expiry, a best-before, a due date
			if !other && i > 0 && !saysDate(k) {
				// The label ends the line above: "Non-food items can be
				// returned by" / "12/04/2024 with this receipt." A line
				// above with a date of its own labels that one ("Arrival:
				// 04/08/24" over "Departure: 04/11/24"); a date stamped
				// with a time is the sale's unless the line above is its
				// label alone ("Prossimo appuntamento:" / "12/06/2025 ore
				// 10:30").
				above := lines[i-1].Text
				other = !reDateNum.MatchString(above) && !reDateWord.MatchString(above) && (!reTime.MatchString(text) || !HasDigit(above)) &&
					pk.LabelsAnotherDate(strings.ToUpper(above))
			}
			labelled := saysDate(k) && !datedInProse(text, s)
			if labelled {
				score += 2
				why = "the date on a line labelled date"
			}
			if other {
				score -= 2.5 // more than a DATE label gives: "Date d'expiration: 31/05/18"
			}
			if pd.Ambiguous {
				score -= 0.1
			}
			score -= float64(i) * 0.01 // earlier wins ties
			t := ""
			m := reTime.FindStringSubmatch(text)
			if m == nil && pk.DottedTimes() {
				m = dottedTimeAfter(text, s)
			}
			if m != nil {
				clock := m[1] + ":" + m[2]
				if m[3] != "" {
					clock += ":" + m[3]
				}
				if m[4] != "" {
					clock += " " + strings.ToUpper(m[4][:1]) + "M"
				}
				if p2, err := receipt.ParseDate(pd.Date.Format("2006-01-02")+" "+clock, loc.DateOrder); err == nil {
					t = p2.Time
					// The sale is stamped with its time; registration,
					// expiry and invoice-reference dates are not.
					score += 0.5
					if why == "a date printed on the page" {
						why = "the date printed beside the sale's time"
					}
				}
			}
			b := l.Box
			conf := l.Conf * factorLabelled
			if pd.Ambiguous {
				conf *= factorSecondReading
			}
			if repaired {
				conf *= factorRepaired
				score -= 10 // any date read as printed wins
				why = "a date that cannot be as read, with one misread digit or a lost separator put back"
			}
			cands = append(cands, dateCand{pd.Date, t, score, conf, &b, why, DateDigitsConf(l), repaired || other, repaired, s, labelled})
		}
	}
	return cands
}

// reShortYearDate is a date printed in numbers with a two-digit year,
// whose parts can be read in more than one order ("24/01/25").
var reShortYearDate = regexp.MustCompile(`^(\d{1,2})([/\-.])(\d{1,2})([/\-.])(\d{2})$`)

// readAsPrintedInFull reads a date printed with a two-digit year in
// another order than the page's as the day printed with its full year
// elsewhere on the page, where one of its orders gives that day: a
// Canadian card slip's "24/01/25" (year first) beside the till's
// "2024-01-25" is no 24 January 2025. A reading that already agrees with
// a date printed in full stays.
func readAsPrintedInFull(cands []dateCand) {
	printedInFull := func(d time.Time, skip int) bool {
		for j, o := range cands {
			if j != skip && !o.other && !o.repaired && o.d.Equal(d) && reShortYearDate.FindString(o.text) == "" {
				return true
			}
		}
		return false
	}
	for i := range cands {
		c := &cands[i]
		m := reShortYearDate.FindStringSubmatch(c.text)
		if m == nil || m[2] != m[4] || c.repaired || printedInFull(c.d, i) {
			continue
		}
		a, b, y := atoiDate(m[1]), atoiDate(m[3]), atoiDate(m[5])
		for _, d := range []time.Time{
			dateIfReal(2000+y, b, a), // day first
			dateIfReal(2000+y, a, b), // month first
			dateIfReal(2000+a, b, y), // year first
		} {
			if !d.IsZero() && !d.Equal(c.d) && printedInFull(d, i) {
				c.d = d
				c.why = "a date with a two-digit year, read in the order that gives the date printed in full"
				break
			}
		}
	}
}

func atoiDate(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// dateIfReal is the day y-m-d, or the zero time where there is no such day.
func dateIfReal(y, m, d int) time.Time {
	t := receipt.Date(y, time.Month(m), d)
	if m < 1 || m > 12 || d < 1 || t.Day() != d {
		return time.Time{}
	}
	return t
}

// reDottedTime is a time of day printed with a dot right after a date,
// perhaps after a short word ("21.11.2024 16.05", "21.11.2024 klo 16.05"),
// its groups as reTime's.
var reDottedTime = regexp.MustCompile(`^\s+(?:\p{L}{1,4}\.?\s+)?([01]?\d|2[0-3])\.([0-5]\d)(?:\.([0-5]\d))?()(?:\s|$)`)

// dottedTimeAfter finds a time of day printed with a dot right after the
// date d on the line (see reDottedTime), where the country's tills print
// one (packs.Pack.DottedTimes); nil where none is.
func dottedTimeAfter(text, d string) []string {
	i := strings.Index(text, d)
	if i < 0 {
		return nil
	}
	return reDottedTime.FindStringSubmatch(text[i+len(d):])
}

// findDateRepairing is findDate that, with repair, also takes dates that
// cannot be as read once one common digit misreading is undone (see
// repairDate): the last resort when no date reads as printed.
func findDateRepairing(lines []Line, loc receipt.Locale, repair bool, now time.Time) Dated {
	cands := dateCandidates(lines, loc, repair, now)
	if len(cands) == 0 {
		return Dated{}
	}
	readAsPrintedInFull(cands)
	// A date stamped with a time and printed again on another line is the
	// sale's more likely than one stamped once: a deposit slip's or an
	// earlier receipt's date and time ("Leergut-Bon vom 08.06.2024 09:12")
	// is printed once, the sale's also by the till's security stamps.
	for i := range cands {
		if cands[i].t == "" || cands[i].other {
			continue
		}
		for j := range cands {
			if j != i && !cands[j].other && cands[j].d.Equal(cands[i].d) && *cands[j].box != *cands[i].box {
				cands[i].score += 0.2
				break
			}
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	c := cands[0]
	// A receipt that prints its date twice, read two ways one part apart
	// ("Date: 19/02/2017" at 50%, "19/09/2017 11:09" at 65%): one was
	// misread, and the surer reading is taken. Below the sale's date, a
	// date printed with no time and no label is another ("or by
	// 22/08/2025, whichever comes first", "DRAW SAT 15/03/2025").
	for _, o := range cands[1:] {
		bareBelow := o.t == "" && !o.labelled && o.box != nil && c.box != nil && o.box.Y > c.box.Y
		if !o.other && !c.other && !bareBelow && OneDatePartApart(o.d, c.d) && o.digits >= c.digits+0.1 {
			if o.t == "" {
				o.t = c.t
			}
			o.why = "the surer of two readings of the date printed twice"
			c = o
			break
		}
	}
	// The same date printed again beside the sale's time gives its time:
	// "Datum 15.04.2020" on the card slip, "15.04.20 16:15" on the till's.
	for _, o := range cands {
		if c.t == "" && o.t != "" && !o.other && o.d.Equal(c.d) {
			c.t = o.t
		}
	}
	if c.box.W == 0 {
		c.box = nil
	}
	return Dated{Field: found(c.d, c.conf, c.box, c.why), Clock: c.t}
}

// RepairedDate is findDateRepairing's last resort tried on each reading in
// turn: the lines as last read, then the page's own, for a date line that
// read worse alone than on the page ("Date: 23.94.24" there, garbled when
// read again).
func RepairedDate(loc receipt.Locale, now time.Time, readings ...[]Line) Dated {
	for _, ls := range readings {
		if d := findDateRepairing(ls, loc, true, now); d.Set {
			return d
		}
	}
	return Dated{}
}

// plausibleDate: no receipt is dated in the future (a day's grace for
// time zones); a time of day "12.17.26" read as 17 December 2026 is not a
// date on 23 November 2026.
func plausibleDate(d time.Time, now time.Time) bool {
	return d.Year() >= 1990 && !d.After(now.AddDate(0, 0, 1))
}

// dateDigitMisreads are the digits blur turns a 0 into (its closed bowl read
// as 6, 8 or 9) and a 1 into 7.
var dateDigitMisreads = map[byte]byte{'6': '0', '8': '0', '9': '0', '7': '1'}

// repairDate mends a date that cannot be as read (day 64, month 18, year
// 2625) by undoing one common digit misreading, when exactly one such
// change gives a plausible date.
func repairDate(s string, loc receipt.Locale, now time.Time) (receipt.ParsedDate, bool) {
	var found receipt.ParsedDate
	n := 0
	for i := 0; i < len(s); i++ {
		to, ok := dateDigitMisreads[s[i]]
		if !ok {
			continue
		}
		t := s[:i] + string(to) + s[i+1:]
		pd, err := receipt.ParseDate(t, loc.DateOrder)
		if err != nil || !plausibleDate(pd.Date, now) {
			continue
		}
		if n == 0 || !pd.Date.Equal(found.Date) {
			n++
		}
		found = pd
	}
	return found, n == 1
}

// reLostSeparator is a date with its thin separators lost: "27/03/2018"
// read alone as "2703/2018" or "27032018" (SROIE 076). Only four-digit
// years count: without the year's shape, digits are an invoice or phone
// number as often as a date. It is a last resort (findDateRepairing).
var reLostSeparator = regexp.MustCompile(`\b(\d{2})([/\-.]?)(\d{2})([/\-.]?)((?:19|20)\d{2})\b`)

// lostSeparatorDates gives back the dates in s that lost one separator or
// both, with them put back ("2703/2018" → "27/03/2018").
func lostSeparatorDates(s string) []string {
	var out []string
	for _, g := range reLostSeparator.FindAllStringSubmatch(s, -1) {
		sep := g[2] + g[4]
		switch len(sep) {
		case 0:
			sep = "/"
		case 2:
			continue // printed whole: reDateNum has it
		}
		out = append(out, g[1]+sep+g[3]+sep+g[5])
	}
	return out
}

var (
	// reDateShaped is three groups of digit-like characters with date
	// separators, a dash maybe read as a tilde: "OS~-05-17", "OS~05-17",
	// "Q1-Nov-2017", "14/dun/2017".
	reDateShaped = regexp.MustCompile(`(^|[^0-9A-Za-z])([0-9OQDSIlBZ|~]{1,4})([/\-.~])([0-9A-Za-z~]{1,4})([/\-.~])([0-9OQDSIlBZ]{2,4})`)
	// reCompactDate is a date without separators next to a time: "25032018 13:11:54".
	reCompactDate = regexp.MustCompile(`\b(\d{2})(\d{2})((?:19|20)\d{2})(\s+\d{1,2}:\d{2})`)
	reISOCompact  = regexp.MustCompile(`\b((?:19|20)\d{2})(\d{2})(\d{2})(\s+\d{1,2}:\d{2})`)
	// digitOf maps the letters and marks OCR reads for digits back to
	// digits, and drops the ~ it puts among them. Callers apply it only
	// where a pattern says digits belong (a date group, a postcode, the
	// number after a tax label), so the superset is safe everywhere.
	digitOf = strings.NewReplacer("O", "0", "Q", "0", "D", "0", "@", "0", "S", "5", "§", "5", "I", "1", "l", "1", "L", "1",
		"|", "1", "]", "1", "!", "1", "B", "8", "Z", "2", "~", "")
	monthAbbrevs = []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}
)

// mendDateText undoes the OCR misreadings that hide a date: letters for
// digits inside a date-shaped group (O/Q/D→0, S→5, I/l/|→1, B→8, Z→2), a
// month name one letter off ("dun" → JUN), "_" glued to the time, and the
// separators a compact date leaves out. The date is still parsed and
// validated afterwards; this only lets a candidate be seen.
// reMonthDayShortYear is a till's month, day and two-digit year, the year
// after an apostrophe or, before the time of sale, a space: "Jun28' 17
// 05:36P", "Oct01'17", "Aug08 19 07:33PM", "Ju116'17" (Jul, its l read as
// a 1; month first wherever printed so).
var reMonthDayShortYear = regexp.MustCompile(`(?i)\b(jan|feb|mar|apr|may|jun|jul|ju1|aug|sep|oct|nov|dec)\s?([0-3]?\d)\s?(?:['’‘]\s?(\d{2})\b|\s(\d{2})\s+[0-2]?\d:[0-5]\d)`)

// reMonthDayMarkYear is a month's name, its day and year, the comma
// between read as a dot or a colon: "June 23.2019", "Jan 28:2018" (which
// would read as the time 28:20).
var reMonthDayMarkYear = regexp.MustCompile(`(?i)\b((?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s*[0-3]?\d)[.:]\s?((?:19|20)\d{2})\b`)

// reDayMisreadMonthYear and reMisreadMonthDayYear are a date whose
// month's name has a letter read as a digit: "Sun 12 0ct 2025", "N0v 3,
// 2024".
var (
	reDayMisreadMonthYear = regexp.MustCompile(`\b[0-3]?\d\.?\s+(\pL*\d[\pL\d]*)\.?,?\s+(?:19|20)\d{2}\b`)
	reMisreadMonthDayYear = regexp.MustCompile(`\b(\pL*\d[\pL\d]*)\.?\s+[0-3]?\d(?:st|nd|rd|th)?,?\s+(?:19|20)\d{2}\b`)
	letterOf              = strings.NewReplacer("0", "O", "1", "L", "5", "S", "8", "B")
)

// mendMonthWord puts back the letters of a month's name read as digits in
// the dates re finds (its first group the month's word), where the word is
// a month's name with them back and has two letters of its own.
func mendMonthWord(re *regexp.Regexp, s string) string {
	return re.ReplaceAllStringFunc(s, func(m string) string {
		g := re.FindStringSubmatchIndex(m)
		w := m[g[2]:g[3]]
		if letterCount(w) < 2 {
			return m
		}
		fixed := letterOf.Replace(strings.ToUpper(w))
		if _, ok := packs.AllMonths()[packs.Fold(fixed)]; ok || slices.Contains(monthAbbrevs, fixed) {
			return m[:g[2]] + fixed + m[g[3]:]
		}
		return m
	})
}

// reISODateTime is an ISO 8601 date and time ("2024-06-15T17:41:03.000",
// a German till's TSE stamp): the date and the time, read apart.
var reISODateTime = regexp.MustCompile(`\b(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})`)

func mendDateText(s string, order receipt.DateOrder) string {
	s = reISODateTime.ReplaceAllString(s, "$1 $2")
	s = joinSplitDateDigits(strings.ReplaceAll(s, "_", " "), order)
	s = reDateShaped.ReplaceAllStringFunc(s, func(m string) string {
		g := reDateShaped.FindStringSubmatch(m)
		day, month, year := g[2], g[4], g[6]
		if strings.Count(m, "")-1 < 6 || packs.CountDigits(day+month+year) < 3 {
			return m
		}
		if letterCount(month) >= 3 {
			if fixed := nearestMonth(month); fixed != "" {
				month = fixed
			}
		} else {
			month = digitOf.Replace(month)
		}
		// A dash read as a tilde: "OS~05-17" is 05-05-17.
		sep1, sep2 := g[3], g[5]
		switch {
		case sep1 == "~" && sep2 == "~":
			return m
		case sep1 == "~":
			sep1 = sep2
		case sep2 == "~":
			sep2 = sep1
		}
		return g[1] + digitOf.Replace(day) + sep1 + month + sep2 + digitOf.Replace(year)
	})
	s = reMonthDayShortYear.ReplaceAllStringFunc(s, func(m string) string {
		g := reMonthDayShortYear.FindStringSubmatch(m)
		if strings.EqualFold(g[1], "ju1") {
			g[1] = "Jul" // its l read as 1: "Ju116'17"
		}
		if g[3] != "" {
			return g[1] + " " + g[2] + ", 20" + g[3]
		}
		return g[1] + " " + g[2] + ", 20" + g[4] + m[strings.LastIndex(m, g[4])+2:]
	})
	s = reMonthDayMarkYear.ReplaceAllString(s, "$1, $2")
	s = mendMonthWord(reDayMisreadMonthYear, s)
	s = mendMonthWord(reMisreadMonthDayYear, s)
	s = reCompactDate.ReplaceAllString(s, "$1/$2/$3$4")
	s = reTimeGluedToYear.ReplaceAllString(s, "$1 $2")
	s = reTwoDigitYearGluedToTime.ReplaceAllString(s, "$1$2 $3")
	s = reTimeFirstColonLost.ReplaceAllString(s, "$1$2:$3:$4")
	s = reISOStamp.ReplaceAllString(s, "$1-$2-$3 $4:$5:$6")
	return reISOCompact.ReplaceAllString(s, "$1-$2-$3$4")
}

var (
	// reSplitDay is a day's two digits that PP-OCR's spacing split, before
	// its month: "1 8/06/2018".
	reSplitDay = regexp.MustCompile(`(^|[^\d\s]\s*|\s)(\d) (\d[/.-]\d{1,2}[/.-]\d{2})`)
	// reSplitYear is a four-digit year split the same way, not before a
	// time: "27/03/20 18", "5/25/2 017".
	reSplitYear = regexp.MustCompile(`(\b\d{1,2}[/.-]\d{1,2}[/.-])(1 ?9|2 ?0) ?(\d) ?(\d)([^:\d]|$)`)
)

// joinSplitDateDigits joins the digits of a date that the spacing of the
// reader split ("1 8/06/20 1 8" is 18/06/2018): a year is joined only to
// four digits starting 19 or 20, and never with the time after it
// ("27/03/20 18:30" is a two-digit year and a time).
// The first part is joined only where the country prints that part first
// as a day: in a month-first country "Station: 1 6/02/2018" is 6 February,
// as "16" can be no month.
func joinSplitDateDigits(s string, order receipt.DateOrder) string {
	s = reSplitDay.ReplaceAllStringFunc(s, func(m string) string {
		g := reSplitDay.FindStringSubmatch(m)
		if month, _ := strconv.Atoi(g[2] + g[3][:1]); order == receipt.MDY && g[3][1] != '.' && month > 12 {
			return m
		}
		return g[1] + g[2] + g[3]
	})
	var b strings.Builder
	last := 0
	for _, m := range reSplitYear.FindAllStringSubmatchIndex(s, -1) {
		// Two digits more after it are a time whose colon was lost or
		// printed as a dot: "18.05.20 09 50" and "18.05.20 09.50" are
		// 18 May 2020 at 09:50.
		if reTimeAfterSplit.MatchString(s[m[10]:]) { // from the character after the year
			continue
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(s[m[2]:m[3]] + strings.ReplaceAll(s[m[4]:m[5]], " ", "") + s[m[6]:m[7]] + s[m[8]:m[9]] + s[m[10]:m[11]])
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// reTimeAfterSplit is the minutes of a time whose colon was lost or
// printed as a dot, after a two-digit year and its hour: the rest of
// "18.05.20 09 50 0000545" or "18.05.20 09.50 0000545".
var reTimeAfterSplit = regexp.MustCompile(`^(\s[0-5]\d([^:\d]|$)|\.[0-5]\d(\D|$))`)

var (
	// reTimeGluedToYear is a date's year with the sale's time read
	// against it, the space lost: "12Mar201818:19", "27/03/201809:15".
	reTimeGluedToYear = regexp.MustCompile(`(?i)((?:\d{1,2}[/.-]\d{1,2}[/.-]|\d{1,2}\s*(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*)(?:19|20)\d{2})([01]?\d:[0-5]\d)`)
	// reTwoDigitYearGluedToTime is a two-digit year with the sale's hour
	// read against it: "06.05.2009:49" is 6 May 2020 at 09:49 (no year
	// is followed by a colon).
	reTwoDigitYearGluedToTime = regexp.MustCompile(`\b(\d{1,2}[/.-]\d{1,2}[/.-])(\d{2})((?:[01]\d|2[0-3]):[0-5]\d)`)
	// reTimeFirstColonLost is a time of day with seconds whose first
	// colon was not read, after a date: "06/14/2017 1838:46".
	reTimeFirstColonLost = regexp.MustCompile(`(\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\s+)([01]\d|2[0-3])([0-5]\d):([0-5]\d)\b`)
	// reISOStamp is a point-of-sale stamp of date and time without
	// separators: "20180428/191204".
	reISOStamp = regexp.MustCompile(`\b((?:19|20)\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])/([01]\d|2[0-3])([0-5]\d)([0-5]\d)\b`)
)

// nearestMonth returns the month abbreviation a three-letter word is, or is
// one letter away from when only one month is; "" otherwise.
func nearestMonth(w string) string {
	w = strings.ToUpper(w)
	if len(w) != 3 {
		return ""
	}
	found := ""
	for _, m := range monthAbbrevs {
		diff := hamming(w, m, 1)
		if diff == 0 {
			return m
		}
		if diff == 1 {
			if found != "" {
				return ""
			}
			found = m
		}
	}
	return found
}

// DateDigitsConf is the least confidence of a line's date-shaped words
// ("20/06/2018", "05-06-2015"), or 1 when it has none.
func DateDigitsConf(l Line) float64 {
	c := 1.0
	for _, w := range l.Words {
		if reDateShaped.MatchString(w.Text) {
			c = min(c, w.Conf)
		}
	}
	return c
}

// OneDatePartApart reports whether two dates differ in exactly one of day,
// month and year: a second reading mends one misread part. One that
// changes more read something else, such as "07/29/25" for 07/09/25, which
// only parses with day and month swapped.
func OneDatePartApart(a, b time.Time) bool {
	n := 0
	if a.Day() != b.Day() {
		n++
	}
	if a.Month() != b.Month() {
		n++
	}
	if a.Year() != b.Year() {
		n++
	}
	return n == 1
}

// MayHideDate chooses the lines read again when a page gave no date: those
// shaped like a date, and those read as garble.
func MayHideDate(l Line) bool {
	return dateShaped(l) || l.Conf < garbledLineConf && len(strings.TrimSpace(l.Text)) >= 4
}

// dateShaped says whether a line may hold a date the page reading garbled.
func dateShaped(l Line) bool {
	u := strings.ToUpper(l.Text)
	return reDateShaped.MatchString(l.Text) || reTime.MatchString(l.Text) ||
		saysDate(u)
}

// saysDate says whether a line (upper case) labels a date, in any language
// a pack knows: DATE, DATUM, FECHA, DATA, PVM, TARIKH…
func saysDate(u string) bool {
	if strings.Contains(u, "DATE") {
		return true
	}
	words := packs.Words(u)
	for _, ph := range packs.LabelWordsEverywhere("DATE") {
		for i := range words {
			if len(ph) <= len(words)-i && strings.Join(words[i:i+len(ph)], " ") == strings.Join(ph, " ") {
				return true
			}
		}
	}
	return false
}

// garbledLineConf is the confidence under which a page line is taken as
// garbled: on SROIE 076 the line "27/03/2018 No : CS-20243", printed just
// above a dashed rule, was read as "ne?! )| eso." (19%).
const garbledLineConf = 0.5

// datedInProse says whether date stands in running text, four words or
// more in small letters and no label's colon before it ("Our work was
// carried out in accordance with our engagement letter dated 3 December
// 2021"): a sentence's date, not a label's.
func datedInProse(text, date string) bool {
	at := strings.Index(text, date)
	if at < 0 || strings.Contains(text[:at], ":") {
		return false // "N de factura: … Fecha de factura: 22/05/2024" is labelled
	}
	return smallWords(text[:at]) >= 4
}
