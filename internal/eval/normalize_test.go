package eval

import "testing"

// Names compare as a page reader may read them: without accents, and with
// the letters NFD keeps whole (ß, ø, æ, ł) as the letters read for them.
func TestNormalizeTextComparesNamesAsRead(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"Bürobedarf Köhler", "BUROBEDARF KOHLER"},
		{"Bäckerei Weiß", "BACKEREI WEISS"},
		{"Bakeri Søvik AS", "BAKERI SOVIK AS"},
		{"Kafé Sæther AS", "KAFE SAETHER AS"},
		{"Apteka Wrocław", "APTEKA WROCLAW"},
	} {
		if NormalizeText(tc.a) != NormalizeText(tc.b) {
			t.Errorf("%q is %q, %q is %q: want them alike", tc.a, NormalizeText(tc.a), tc.b, NormalizeText(tc.b))
		}
	}
	if NormalizeText("Søvik") == NormalizeText("Savik") {
		t.Error("ø compares as a")
	}
}
