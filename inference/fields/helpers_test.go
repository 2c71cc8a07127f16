package fields

import "time"

// testNow is "today" for the rules in tests: readings do not depend on the
// day the tests run.
var testNow = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
