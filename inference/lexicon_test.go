package inference

import "testing"

func TestMendTradeWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"GARDENIA BAKERLES (KL) SDN BHD", "GARDENIA BAKERIES (KL) SDN BHD"},
		{"ENW HARDWAWVE CENTRE (M) SDN. BHD", "ENW HARDWARE CENTRE (M) SDN. BHD"},
		{"379, JALAN PERMAS SATU, BANOAR BARU", "379, JALAN PERMAS SATU, BANDAR BARU"},
		{"41150 KLANG, SCLANGOR,", "41150 KLANG, SELANGOR,"},
		{"KEDAI PAPAN YEW CHUAN", "KEDAI PAPAN YEW CHUAN"}, // a known word stays
		{"DAISO JAPAN, IOI MALL", "DAISO JAPAN, IOI MALL"}, // not JALAN
		{"BATFU (M) SDN BHD", "BATFU (M) SDN BHD"},         // short words: no dropped letters
		{"PASAR MINT JIN SENG", "PASAR MINT JIN SENG"},     // under five letters: left alone
		{"Mixed Case Bakerles", "Mixed Case Bakerles"},     // only capitals are mended
	} {
		if got := mendTradeWords(tc.in); got != tc.want {
			t.Errorf("mendTradeWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMendTradeWordsKeepsOtherEndings(t *testing.T) {
	if got := mendTradeWords("CORNER STATIONERS LTD"); got != "CORNER STATIONERS LTD" {
		t.Errorf("got %q", got)
	}
}
