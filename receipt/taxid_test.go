package receipt

import (
	"strings"
	"testing"
)

func TestValidateTaxID(t *testing.T) {
	tests := []struct {
		scheme TaxScheme
		value  string
		valid  bool
	}{
		{SchemeABN, "51 824 753 556", true}, // the ATO's example ABN
		{SchemeABN, "53 004 085 616", true},
		{SchemeABN, "51 824 753 557", false},
		{SchemeABN, "5182475355", false},
		{SchemeUKVAT, "GB 980 7806 84", true}, // modulus 97
		{SchemeUKVAT, "GB 100 1950 75", true}, // modulus 9755
		{SchemeUKVAT, "GB 980 7806 85", false},
		{SchemeUKVAT, "GB980780684001", true}, // branch number
		{SchemeUKVAT, "GBGD001", true},
		{SchemeEUVAT, "DE123456788", true},
		{SchemeEUVAT, "DE123456789", false}, // check digit 8
		{SchemeEUVAT, "DE136695976", true},
		{SchemeEUVAT, "DE12345678", false},
		{SchemeEUVAT, "NL004495445B01", true},
		{SchemeEUVAT, "FRXX123456789", true},
		{SchemeEUVAT, "ATU13585627", true},
		{SchemeEUVAT, "AT12345678", false},
		{SchemeEUVAT, "EL123456789", true},
		{SchemeEUVAT, "XX123456789", false},
		{SchemeNZGST, "49-091-850", true}, // Inland Revenue's examples
		{SchemeNZGST, "35-901-981", true},
		{SchemeNZGST, "49-098-576", true},
		{SchemeNZGST, "136-410-132", true},
		{SchemeNZGST, "136-410-133", false},
		{SchemeNZGST, "9-125-568", false},
		{SchemeUSEIN, "12-3456789", true},
		{SchemeUSEIN, "07-3456789", false},
		{SchemeUSEIN, "12-345678", false},
		{SchemeMYGST, "000306020352", true},
		{SchemeMYGST, "0003060203", false},
		{SchemeMYSST, "W10-1808-32000123", true},
		{SchemeOther, "anything", true},
	}
	for _, tt := range tests {
		t.Run(string(tt.scheme)+"/"+tt.value, func(t *testing.T) {
			err := ValidateTaxID(TaxID{Scheme: tt.scheme, Value: tt.value})
			if (err == nil) != tt.valid {
				t.Errorf("ValidateTaxID = %v, want valid=%v", err, tt.valid)
			}
		})
	}
}

func TestDetectTaxID(t *testing.T) {
	tests := []struct {
		in      string
		country Country
		scheme  TaxScheme
		value   string
	}{
		{"ABN 51 824 753 556", CountryAU, SchemeABN, "51824753556"},
		{"ABN: 51 824 753 556", "", SchemeABN, "51824753556"},
		{"VAT No: GB 980 7806 84", CountryUK, SchemeUKVAT, "GB980780684"},
		{"980 7806 84", CountryUK, SchemeUKVAT, "980780684"},
		{"DE123456788", CountryEU, SchemeEUVAT, "DE123456788"},
		{"USt-IdNr. DE123456788", CountryEU, SchemeEUVAT, "DE123456788"},
		{"TVA intracom. FR40303265045", CountryEU, SchemeEUVAT, "FR40303265045"},
		{"BTW-nr NL004495445B01", CountryEU, SchemeEUVAT, "NL004495445B01"},
		{"GST No. 49-091-850", CountryNZ, SchemeNZGST, "49091850"},
		{"EIN 12-3456789", CountryUS, SchemeUSEIN, "123456789"},
		{"GST ID: 000306020352", CountryMY, SchemeMYGST, "000306020352"},
		{"ABN 45 912 532 781 4", CountryAU, SchemeABN, "459125327814"}, // a stray digit, for RepairTaxID
		// Synthetic German phone photos: the label's t misread, DE read as 0.
		{"USI\\-IdNr DE053330849", CountryEU, SchemeEUVAT, "DE053330849"},
		{"USt-IdNr 0050792060", CountryEU, SchemeEUVAT, "DE050792060"},
		{"USt-IdNr 0050792061", CountryEU, SchemeOther, "0050792061"}, // fails the check digit: as read
		{"ABN 45 912 532 781 4", CountryOther, SchemeABN, "459125327814"},
		{"GST : 002008047616", CountryAU, SchemeOther, "002008047616"}, // a Malaysian GST ID read as AU: no ABN
		{"GST REG NO: 001092886528", "", SchemeMYGST, "001092886528"},
		{"SST No: W10-1808-32000123", CountryMY, SchemeMYSST, "W10180832000123"},
		{"XYZ-1", CountryAU, SchemeOther, "XYZ1"},
		// Outside the EU: Switzerland's UID with its register's word,
		// Norway's organisation number with MVA.
		{"MWST-Nr. CHE-116.281.710 MWST", CountryOther, SchemeCHVAT, "CHE116281710MWST"},
		{"N° TVA CHE-116.281.710 TVA", CountryOther, SchemeCHVAT, "CHE116281710TVA"},
		{"Org.nr. 923 609 016 MVA", CountryOther, SchemeNOVAT, "NO923609016MVA"},
		{"NO 923 609 016 MVA", CountryOther, SchemeNOVAT, "NO923609016MVA"},
		{"Org.nr. 923 609 016", CountryOther, SchemeOther, "ORGNR923609016"}, // not registered for VAT
		{"UID CHE-116.281.710", CountryOther, SchemeOther, "CHE116281710"},   // a business ID without the VAT register's word
	}
	for _, tt := range tests {
		got := DetectTaxID(tt.in, tt.country)
		if got.Scheme != tt.scheme || got.Value != tt.value {
			t.Errorf("DetectTaxID(%q, %s) = %+v, want %s %s", tt.in, tt.country, got, tt.scheme, tt.value)
		}
	}
}

func TestTaxIDErrorsNameTheProblem(t *testing.T) {
	err := ValidateTaxID(TaxID{Scheme: SchemeABN, Value: "51 824 753 557"})
	if err == nil || !strings.Contains(err.Error(), "modulus 89") {
		t.Fatalf("want a checksum error naming modulus 89, got %v", err)
	}
}

func TestRepairTaxID(t *testing.T) {
	for _, tc := range []struct {
		in   TaxID
		want string
	}{
		{TaxID{Scheme: SchemeUKVAT, Value: "GB7482683954"}, "GB748268395"}, // a speck read as a last digit
		{TaxID{Scheme: SchemeUKVAT, Value: "GB980780684"}, "GB980780684"},  // valid: left alone
		{TaxID{Scheme: SchemeABN, Value: "518247535561"}, "51824753556"},
		{TaxID{Scheme: SchemeABN, Value: "751824753556"}, "51824753556"},
		{TaxID{Scheme: SchemeABN, Value: "123456789012"}, "123456789012"}, // nothing fits: as read
		{TaxID{Scheme: SchemeMYGST, Value: "0012345678901"}, "0012345678901"},
		// Synthetic phone photos: a 0 read as 6, and as 8.
		{TaxID{Scheme: SchemeABN, Value: "56008201062"}, "50008201062"},
		{TaxID{Scheme: SchemeABN, Value: "64608408042"}, "64008408042"},
		{TaxID{Scheme: SchemeUKVAT, Value: "GB986780684"}, "GB980780684"},
		// 207600890 and 207880890 both pass: the 0 read as 8 is the
		// common misreading, and the truth (synthetic UK 029).
		{TaxID{Scheme: SchemeUKVAT, Value: "GB207680890"}, "GB207600890"},
		{TaxID{Scheme: SchemeUKVAT, Value: "GB602657779"}, "GB602057779"},
		{TaxID{Scheme: SchemeEUVAT, Value: "DE136695916"}, "DE136695976"},
		{TaxID{Scheme: SchemeEUVAT, Value: "DE136695978"}, "DE136695978"}, // 136695878 and 136695976 both pass, neither a 0: as read
		{TaxID{Scheme: SchemeEUVAT, Value: "DE627743510"}, "DE027743510"},
		{TaxID{Scheme: SchemeEUVAT, Value: "DE1366959761"}, "DE136695976"},
		{TaxID{Scheme: SchemeEUVAT, Value: "FR40303265045"}, "FR40303265045"}, // no checksum known here
		{TaxID{Scheme: SchemeABN, Value: "88079696595"}, "88079696595"},       // two digits misread: as read
	} {
		if got := RepairTaxID(tc.in); got.Value != tc.want || got.Scheme != tc.in.Scheme {
			t.Errorf("RepairTaxID(%+v) = %+v, want %s", tc.in, got, tc.want)
		}
	}
}

// Irish, Belgian, Portuguese, Austrian, Finnish, French, Italian, Dutch
// and Polish VAT numbers check themselves: a number
// that fails was misread, and the one like-shaped mend that makes it hold
// is the number printed.
func TestEUVATCheckCharacters(t *testing.T) {
	t.Run("outside the EU", func(t *testing.T) {
		for _, tc := range []struct {
			id     TaxID
			valid  bool
			errHas string
		}{
			{TaxID{Scheme: SchemeCHVAT, Value: "CHE-116.281.710 MWST"}, true, ""},
			{TaxID{Scheme: SchemeCHVAT, Value: "CHE116281711"}, false, "check digit"},
			{TaxID{Scheme: SchemeCHVAT, Value: "CHE11628171"}, false, "must look like"},
			{TaxID{Scheme: SchemeNOVAT, Value: "NO923609016MVA"}, true, ""},
			{TaxID{Scheme: SchemeNOVAT, Value: "NO923609017MVA"}, false, "check digit"},
		} {
			err := ValidateTaxID(tc.id)
			if (err == nil) != tc.valid || err != nil && !strings.Contains(err.Error(), tc.errHas) {
				t.Errorf("%s: %v, want valid %v", tc.id.Value, err, tc.valid)
			}
		}
	})
	for _, tc := range []struct {
		id    string
		valid bool
	}{
		{"IE6388047V", true},
		{"IE6388047W", false},
		{"IE1234567FA", true}, // the 2013 format: A weighted 9
		{"IE1234567FB", false},
		{"IE8Z49289F", true}, // the old format: 0 4 9 2 8 9 8 weighted
		{"IE8Z49289G", false},
		{"BE0776091951", true},
		{"BE0776091952", false},
		{"PT501964843", true},
		{"PT501964844", false},
		{"ATU13585627", true},
		{"ATU13585628", false},
		{"FI20774740", true},
		{"FI20774741", false},
		{"FR40303265045", true},
		{"FR41303265045", false},
		{"FRK7399859412", true}, // a key with a letter: its format only
		{"IT00743110157", true},
		{"IT00743110158", false},
		{"NL004495445B01", true},
		{"NL004495446B01", false},
		{"NL000099998B57", true}, // a sole trader's number, modulus 97
		{"NL000099998B58", false},
		{"PL5260250274", true},
		{"PL5260250275", false},
		{"SE556123456701", true},
		{"SE556123456801", false},
		{"DK13585601", true},
		{"DK13585602", false},
	} {
		if err := ValidateTaxID(TaxID{Scheme: SchemeEUVAT, Value: tc.id}); (err == nil) != tc.valid {
			t.Errorf("%s: %v, want valid %v", tc.id, err, tc.valid)
		}
	}
	for _, tc := range []struct{ read, want string }{
		{"IE63880470", "IE63880470"}, // 0 may be O or D: V is the check letter, neither holds
		{"IE63880478", "IE63880478"},
		{"IE33607530", "IE3360753O"}, // the check letter O read as 0
		{"BE0776691951", "BE0776091951"},
		{"PL5266250274", "PL5260250274"}, // 0 read as 6: the one mend that holds
		{"PL5260260274", "PL5260260274"}, // three mends hold: as read
		{"IT00743119157", "IT00743110157"},
	} {
		if got := RepairTaxID(TaxID{Scheme: SchemeEUVAT, Value: tc.read}); got.Value != tc.want {
			t.Errorf("RepairTaxID(%s) = %s, want %s", tc.read, got.Value, tc.want)
		}
	}
}
