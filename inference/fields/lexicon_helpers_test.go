package fields

import (
	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// lexiconIn is the lexicon of a page printed in country c.
func lexiconIn(c receipt.Country) *lexicon {
	pk, _ := packs.Get(string(c))
	return lexiconOf(pk)
}

// myLexicon is a Malaysian page's lexicon, where the rules' place words
// were first gathered.
func myLexicon() *lexicon { return lexiconIn(receipt.CountryMY) }

// mendTradeWords mends s to a Malaysian page's trade words.
func mendTradeWords(s string) string {
	lx := myLexicon()
	return lx.mendWords(s, lx.trade)
}

// mendAddressWords mends s to a Malaysian page's address words.
func mendAddressWords(s string) string { return myLexicon().mendAddressWords(s) }

// mendNameWords mends a name as on a page printed in country c.
func mendNameWords(s string, c receipt.Country) string { return lexiconIn(c).mendNameWords(s) }

// mendAddressText mends an address as on a page printed in country c.
func mendAddressText(s string, c receipt.Country) string { return lexiconIn(c).mendAddressText(s) }

// everyPlaceWord are the trade words and every pack's place and street
// words, and knownAnywhere the words some pack keeps as read.
func everyPlaceWord() (trade, address, known map[string]bool) {
	trade, address, known = union(shopWords), union(shopWords), union(knownWords)
	for _, pk := range packs.All() {
		lx := lexiconOf(pk)
		trade, address, known = union(trade, lx.trade), union(address, lx.address), union(known, lx.known)
	}
	return trade, address, known
}
