package receipt

import (
	"fmt"
	"regexp"
	"strings"
)

// euVATFormats is each EU member state's VAT number shape after its
// two-letter prefix (Greece uses EL).
var euVATFormats = map[string]*regexp.Regexp{
	"AT": regexp.MustCompile(`^U\d{8}$`),
	"BE": regexp.MustCompile(`^[01]\d{9}$`),
	"BG": regexp.MustCompile(`^\d{9,10}$`),
	"CY": regexp.MustCompile(`^\d{8}[A-Z]$`),
	"CZ": regexp.MustCompile(`^\d{8,10}$`),
	"DE": regexp.MustCompile(`^\d{9}$`),
	"DK": regexp.MustCompile(`^\d{8}$`),
	"EE": regexp.MustCompile(`^\d{9}$`),
	"EL": regexp.MustCompile(`^\d{9}$`),
	"ES": regexp.MustCompile(`^([A-Z]\d{7}[A-Z0-9]|\d{8}[A-Z])$`),
	"FI": regexp.MustCompile(`^\d{8}$`),
	"FR": regexp.MustCompile(`^[0-9A-HJ-NP-Z]{2}\d{9}$`),
	"HR": regexp.MustCompile(`^\d{11}$`),
	"HU": regexp.MustCompile(`^\d{8}$`),
	"IE": regexp.MustCompile(`^(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$`),
	"IT": regexp.MustCompile(`^\d{11}$`),
	"LT": regexp.MustCompile(`^(\d{9}|\d{12})$`),
	"LU": regexp.MustCompile(`^\d{8}$`),
	"LV": regexp.MustCompile(`^\d{11}$`),
	"MT": regexp.MustCompile(`^\d{8}$`),
	"NL": regexp.MustCompile(`^\d{9}B\d{2}$`),
	"PL": regexp.MustCompile(`^\d{10}$`),
	"PT": regexp.MustCompile(`^\d{9}$`),
	"RO": regexp.MustCompile(`^\d{2,10}$`),
	"SE": regexp.MustCompile(`^\d{10}01$`),
	"SI": regexp.MustCompile(`^\d{8}$`),
	"SK": regexp.MustCompile(`^\d{10}$`),
}

// NormalizeTaxID strips spaces, dots and dashes and upper-cases the ID, the
// form in which it is stored and compared.
func NormalizeTaxID(s string) string {
	s = strings.ToUpper(s)
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '.', '-', '/', '\u00a0', '~', '_', '\\': // ~, _ and \ are dashes and slashes as OCR reads them
			return -1
		}
		return r
	}, s)
}

// ValidateTaxID checks id against its scheme's format and checksum. It
// returns nil when the ID is valid, or an error saying what is wrong.
// Schemes without a published checksum are checked for shape only.
func ValidateTaxID(id TaxID) error {
	v := NormalizeTaxID(id.Value)
	switch id.Scheme {
	case SchemeABN:
		return validateABN(v)
	case SchemeUKVAT:
		return validateUKVAT(v)
	case SchemeEUVAT:
		return validateEUVAT(v)
	case SchemeNZGST:
		return validateNZGST(v)
	case SchemeUSEIN:
		return validateEIN(v)
	case SchemeMYGST:
		if !reMYGST.MatchString(v) {
			return fmt.Errorf("Malaysian GST ID %q must have 12 digits", id.Value)
		}
	case SchemeMYSST:
		if !reMYSST.MatchString(v) {
			return fmt.Errorf("Malaysian SST ID %q must look like W10-1808-32000123", id.Value)
		}
	case SchemeCHVAT, SchemeNOVAT:
		return vatsOutsideEU[id.Scheme].validate(v)
	}
	return nil
}

// vatOutsideEU is how a VAT number of a country outside the EU checks
// itself: a business number of nine digits and the register's word, the
// ninth digit the first eight weighted, modulus 11 (elevenCheckDigit).
type vatOutsideEU struct {
	country, example string
	shape            *regexp.Regexp // the number as stored, its digits in group 1
	weights          []int
}

var vatsOutsideEU = map[TaxScheme]vatOutsideEU{
	// A Swiss UID with its register's word in German, French or Italian.
	SchemeCHVAT: {"Swiss", "CHE-123.456.789 MWST", regexp.MustCompile(`^CHE(\d{9})(?:MWST|TVA|IVA)?$`), []int{5, 4, 3, 2, 7, 6, 5, 4}},
	// A Norwegian organisation number with MVA.
	SchemeNOVAT: {"Norwegian", "NO 912 345 678 MVA", regexp.MustCompile(`^NO(\d{9})MVA$`), []int{3, 2, 7, 6, 5, 4, 3, 2}},
}

func (c vatOutsideEU) validate(v string) error {
	m := c.shape.FindStringSubmatch(v)
	if m == nil {
		return fmt.Errorf("%s VAT number %q must look like %s", c.country, v, c.example)
	}
	if elevenCheckDigit(m[1][:8], c.weights...) != int(m[1][8]-'0') {
		return fmt.Errorf("%s VAT number %s fails its check digit (modulus 11): check for a misread digit", c.country, v)
	}
	return nil
}

// elevenCheckDigit is the check digit of the weighted modulus 11 schemes
// where 11 less the remainder is the digit, 11 is 0 and 10 none (-1).
func elevenCheckDigit(digits string, weights ...int) int {
	switch c := 11 - weightedSum(digits, weights...)%11; c {
	case 11:
		return 0
	case 10:
		return -1
	default:
		return c
	}
}

// The Malaysian schemes have no checksum, only a shape.
var (
	reMYGST = regexp.MustCompile(`^\d{12}$`)
	reMYSST = regexp.MustCompile(`^[A-Z]\d{2}\d{4}\d{8}$`)
)

func allDigits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// RepairTaxID mends what OCR commonly does to a checksummed number (an
// ABN, a UK, German, Belgian or Portuguese VAT number): a stray digit read
// beside it, when
// exactly one of the number without its first or without its last digit
// passes the checksum; or one digit read as a digit of like shape (0 as 6,
// 8 or 9; 1 as 7), when exactly one such change passes; and an Irish VAT
// number's check letter read as a digit (O as 0). Any other ID comes back
// as it was: a checksum that two mends pass says nothing.
func RepairTaxID(id TaxID) TaxID {
	v := NormalizeTaxID(id.Value)
	prefix := ""
	var valid func(string) error
	n := 0
	switch id.Scheme {
	case SchemeABN:
		valid, n = validateABN, 11
	case SchemeUKVAT:
		if strings.HasPrefix(v, "GB") || strings.HasPrefix(v, "XI") {
			prefix, v = v[:2], v[2:]
		}
		valid, n = validateUKVAT, 9
	case SchemeEUVAT:
		if len(v) < 4 {
			return id
		}
		prefix, v = v[:2], v[2:]
		if prefix == "IE" {
			if fixed, ok := irishCheckLetterRead(v); ok {
				return TaxID{Scheme: id.Scheme, Value: prefix + fixed}
			}
			return id
		}
		n = checkedDigits[prefix]
		if n == 0 {
			return id
		}
		valid = func(s string) error { return validateEUVAT(prefix + s) }
	default:
		return id
	}
	var fixed []string
	switch {
	case allDigits(v, n+1):
		for _, cand := range []string{v[1:], v[:len(v)-1]} {
			if valid(cand) == nil {
				fixed = append(fixed, cand)
			}
		}
	case allDigits(v, n) && valid(v) != nil:
		fixed = digitMisreads(v, valid)
		if len(fixed) > 1 {
			fixed = zerosReadAsLoops(v, fixed)
		}
	}
	if len(fixed) != 1 {
		return id
	}
	return TaxID{Scheme: id.Scheme, Value: prefix + fixed[0]}
}

// checkedDigits are the lengths of the all-digit VAT numbers whose check
// digits RepairTaxID mends against, by prefix.
var checkedDigits = map[string]int{"DE": 9, "BE": 10, "PT": 9, "FI": 8, "FR": 11, "IT": 11, "PL": 10, "DK": 8}

// letterLike are the letters a digit read in a letter's place may stand
// for (the check letter of an Irish VAT number read as a digit).
var letterLike = map[byte]string{'0': "OD", '1': "IL", '2': "Z", '4': "A", '5': "S", '6': "G", '7': "T", '8': "B"}

// irishCheckLetterRead mends an Irish VAT number whose check letter was
// read as a digit of like shape ("33607530" for 3360753O): the one letter
// that shape may be that makes the check hold.
func irishCheckLetterRead(v string) (string, bool) {
	if len(v) < 8 || !allDigits(v[:8], 8) || len(v) > 9 {
		return "", false
	}
	var fixed []string
	for _, l := range []byte(letterLike[v[7]]) {
		c := v[:7] + string(l) + v[8:]
		if validateEUVAT("IE"+c) == nil {
			fixed = append(fixed, c)
		}
	}
	if len(fixed) != 1 {
		return "", false
	}
	return fixed[0], true
}

// zerosReadAsLoops keeps the candidates that differ from v by a 0 read as
// 6, 8 or 9, a blurred 0's closed bowl: where several like-shaped mends
// pass a checksum, that misreading is the common one (synthetic phone
// photos read GB 207 6008 90 as 207 6808 90, which 207880890 would also
// fix).
func zerosReadAsLoops(v string, cands []string) []string {
	var out []string
	for _, c := range cands {
		for i := range len(v) {
			if c[i] != v[i] {
				if c[i] == '0' && strings.IndexByte("689", v[i]) >= 0 {
					out = append(out, c)
				}
				break
			}
		}
	}
	return out
}

// likeDigits are, for each digit, the digits OCR reads it as on blurred or
// faded print.
var likeDigits = [10]string{"689", "74", "7", "8", "1", "68", "058", "12", "0369", "08"}

// digitMisreads are the numbers one digit of like shape away from v that
// pass valid.
func digitMisreads(v string, valid func(string) error) []string {
	var out []string
	b := []byte(v)
	for i := range b {
		read := b[i]
		for _, d := range []byte(likeDigits[read-'0']) {
			b[i] = d
			if valid(string(b)) == nil {
				out = append(out, string(b))
			}
		}
		b[i] = read
	}
	return out
}

// validateABN applies the ATO's modulus 89 check: subtract 1 from the first
// digit, weight the digits 10,1,3,5,…,19 and the sum divides by 89.
func validateABN(v string) error {
	if !allDigits(v, 11) {
		return fmt.Errorf("ABN %q must have 11 digits", v)
	}
	weights := [11]int{10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19}
	sum := 0
	for i := 0; i < 11; i++ {
		d := int(v[i] - '0')
		if i == 0 {
			d--
		}
		sum += d * weights[i]
	}
	if sum%89 != 0 {
		return fmt.Errorf("ABN %s fails its checksum (modulus 89): check for a misread digit", v)
	}
	return nil
}

// validateUKVAT applies HMRC's modulus 97 and 9755 checks to a 9-digit
// number (a 12-digit branch number is checked on its first 9 digits).
// Government departments (GD) and health authorities (HA) are shape-checked.
func validateUKVAT(v string) error {
	v = strings.TrimPrefix(strings.TrimPrefix(v, "GB"), "XI")
	if strings.HasPrefix(v, "GD") || strings.HasPrefix(v, "HA") {
		if allDigits(v[2:], 3) {
			return nil
		}
		return fmt.Errorf("UK VAT number %q: GD/HA numbers have three digits", v)
	}
	if allDigits(v, 12) {
		v = v[:9]
	}
	if !allDigits(v, 9) {
		return fmt.Errorf("UK VAT number %q must have 9 or 12 digits", v)
	}
	sum := 0
	for i := 0; i < 7; i++ {
		sum += int(v[i]-'0') * (8 - i)
	}
	check := int(v[7]-'0')*10 + int(v[8]-'0')
	if (sum+check)%97 == 0 || (sum+55+check)%97 == 0 {
		return nil
	}
	return fmt.Errorf("UK VAT number GB%s fails its checksum (modulus 97/9755): check for a misread digit", v)
}

func validateEUVAT(v string) error {
	if len(v) < 4 {
		return fmt.Errorf("EU VAT number %q is too short", v)
	}
	cc := v[:2]
	if cc == "GR" {
		cc = "EL"
	}
	re, ok := euVATFormats[cc]
	if !ok {
		return fmt.Errorf("EU VAT number %q: %q is not an EU country prefix", v, v[:2])
	}
	if !re.MatchString(v[2:]) {
		return fmt.Errorf("EU VAT number %q does not have the format used in %s", v, cc)
	}
	if ch, ok := euVATChecks[cc]; ok && !ch.holds(v[2:]) {
		return fmt.Errorf("%s VAT number %s fails its %s: check for a misread %s", ch.country, v, ch.check, ch.misread)
	}
	return nil
}

// euVATCheck is how a member state's VAT number checks itself.
type euVATCheck struct {
	country, check, misread string
	holds                   func(body string) bool // the number after its prefix, in the state's format
}

// euVATChecks are the check digits and letters verified: a number that
// fails its own was misread (or misprinted).
var euVATChecks = map[string]euVATCheck{
	"DE": {"German", "check digit (ISO 7064 MOD 11,10)", "digit", func(b string) bool { return GermanVATCheckDigit(b[:8]) == int(b[8]-'0') }},
	"BE": {"Belgian", "check number (modulus 97)", "digit", func(b string) bool { return 97-atoi(b[:8])%97 == atoi(b[8:]) }},
	"PT": {"Portuguese", "check digit (modulus 11)", "digit", func(b string) bool { return portugueseCheckDigit(b[:8]) == int(b[8]-'0') }},
	"IE": {"Irish", "check letter (modulus 23)", "digit or letter", irishCheckHolds},
	"AT": {"Austrian", "check digit", "digit", austrianCheckHolds},
	"FI": {"Finnish", "check digit (modulus 11)", "digit", finnishCheckHolds},
	"FR": {"French", "key (modulus 97 of the SIREN)", "digit", frenchKeyHolds},
	"IT": {"Italian", "check digit (Luhn)", "digit", luhnHolds},
	"NL": {"Dutch", "check digit (modulus 11, or 97 for a sole trader's number)", "digit", dutchCheckHolds},
	"PL": {"Polish", "check digit (NIP, modulus 11)", "digit", polishCheckHolds},
	"SE": {"Swedish", "check digit (Luhn, of the organisation number)", "digit", func(b string) bool { return luhnHolds(b[:10]) }},
	"DK": {"Danish", "check (CVR, modulus 11)", "digit", func(b string) bool { return weightedSum(b, 2, 7, 6, 5, 4, 3, 2, 1)%11 == 0 }},
}

// weightedSum is the sum of digits[i]·weights[i].
func weightedSum(digits string, weights ...int) int {
	sum := 0
	for i, w := range weights {
		sum += int(digits[i]-'0') * w
	}
	return sum
}

// austrianCheckHolds checks an Austrian UID (U and eight digits): the
// first seven, every second one doubled and its digits summed, plus 4;
// the check digit takes the sum to a multiple of ten.
func austrianCheckHolds(b string) bool {
	sum := 4
	for i := range 7 {
		x := int(b[1+i] - '0')
		if i%2 == 1 {
			x *= 2
			x = x/10 + x%10
		}
		sum += x
	}
	return (10-sum%10)%10 == int(b[8]-'0')
}

// finnishCheckHolds checks a Finnish business ID's eighth digit: weights
// 7 9 10 5 8 4 2, modulus 11 (a remainder of 1 has no valid number).
func finnishCheckHolds(b string) bool {
	r := weightedSum(b, 7, 9, 10, 5, 8, 4, 2) % 11
	switch r {
	case 0:
		return b[7] == '0'
	case 1:
		return false
	}
	return 11-r == int(b[7]-'0')
}

// frenchKeyHolds checks a French VAT number's two-digit key against its
// SIREN: (12 + 3·(SIREN mod 97)) mod 97. The newer keys with letters are
// checked only for their format.
func frenchKeyHolds(b string) bool {
	if !allDigits(b, 11) {
		return true
	}
	return atoi(b[:2]) == (12+3*(atoi(b[2:])%97))%97
}

// luhnHolds checks a number whose last digit is its Luhn check digit (an
// Italian partita IVA).
func luhnHolds(b string) bool {
	sum := 0
	for j := range len(b) {
		x := int(b[len(b)-1-j] - '0')
		if j%2 == 1 {
			if x *= 2; x > 9 {
				x -= 9
			}
		}
		sum += x
	}
	return sum%10 == 0
}

// dutchCheckHolds checks a Dutch VAT number (nine digits, B, two): the
// ninth digit is the first eight weighted 9 to 2, modulus 11; a sole
// trader's number since 2020 instead makes "NL" and the number, letters
// as 10 to 35, 1 modulo 97.
func dutchCheckHolds(b string) bool {
	if r := weightedSum(b, 9, 8, 7, 6, 5, 4, 3, 2) % 11; r < 10 && r == int(b[8]-'0') {
		return true
	}
	rem := 0
	for _, c := range "NL" + b {
		if c >= 'A' && c <= 'Z' {
			rem = (rem*100 + int(c-'A') + 10) % 97
		} else {
			rem = (rem*10 + int(c-'0')) % 97
		}
	}
	return rem == 1
}

// polishCheckHolds checks a Polish NIP's tenth digit: the first nine
// weighted 6 5 7 2 3 4 5 6 7, modulus 11 (10 is no valid number).
func polishCheckHolds(b string) bool {
	r := weightedSum(b, 6, 5, 7, 2, 3, 4, 5, 6, 7) % 11
	return r < 10 && r == int(b[9]-'0')
}

// portugueseCheckDigit is the ninth digit of a Portuguese NIF whose first
// eight are digits: weights 9 to 2, modulus 11, 10 and 11 giving 0.
func portugueseCheckDigit(digits string) int {
	sum := 0
	for i := range 8 {
		sum += int(digits[i]-'0') * (9 - i)
	}
	if c := 11 - sum%11; c < 10 {
		return c
	}
	return 0
}

// irishCheckHolds checks an Irish VAT number's check letter: its seven
// digits weighted 8 to 2, and the letter after the check letter (A–I) of
// the 2013 format weighted 9, modulus 23, W for 0. The old format (a digit,
// a letter or + or *, five digits, the check letter) is checked as the
// seven digits it stands for.
func irishCheckHolds(b string) bool {
	digits, extra := b[:7], 0
	if b[1] < '0' || b[1] > '9' {
		digits = "0" + b[2:7] + b[:1]
	} else if len(b) == 9 {
		extra = int(b[8]-'A'+1) * 9
	}
	sum := extra
	for i := range 7 {
		sum += int(digits[i]-'0') * (8 - i)
	}
	want := byte('W')
	if r := sum % 23; r > 0 {
		want = byte('A' + r - 1)
	}
	return b[7] == want
}

// GermanVATCheckDigit is the ninth digit of a German VAT number
// (USt-IdNr.) whose first eight are digits: ISO 7064 MOD 11,10.
func GermanVATCheckDigit(digits string) int {
	p := 10
	for i := range 8 {
		s := (int(digits[i]-'0') + p) % 10
		if s == 0 {
			s = 10
		}
		p = 2 * s % 11
	}
	return (11 - p) % 10
}

// validateNZGST checks an IRD number, which NZ GST numbers are, with Inland
// Revenue's modulus 11 check and its secondary weights.
func validateNZGST(v string) error {
	if len(v) == 8 {
		v = "0" + v
	}
	if !allDigits(v, 9) {
		return fmt.Errorf("NZ GST number %q must have 8 or 9 digits", v)
	}
	base := v[:8]
	n := atoi(base)
	if n < 1000000 || n > 15000000 {
		return fmt.Errorf("NZ GST number %s is outside the range Inland Revenue issues", v)
	}
	calc := func(w [8]int) int {
		sum := 0
		for i := 0; i < 8; i++ {
			sum += int(base[i]-'0') * w[i]
		}
		r := sum % 11
		if r == 0 {
			return 0
		}
		return 11 - r
	}
	check := calc([8]int{3, 2, 7, 6, 5, 4, 3, 2})
	if check == 10 {
		check = calc([8]int{7, 4, 3, 2, 5, 2, 7, 6})
	}
	if check == 10 || check != int(v[8]-'0') {
		return fmt.Errorf("NZ GST number %s fails its checksum (modulus 11): check for a misread digit", v)
	}
	return nil
}

// einPrefixes are the two-digit prefixes the IRS assigns to EINs.
var einPrefixes = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range [][2]int{{1, 6}, {10, 16}, {20, 27}, {30, 48}, {50, 68}, {71, 77}, {80, 88}, {90, 95}, {98, 99}} {
		for p := r[0]; p <= r[1]; p++ {
			m[fmt.Sprintf("%02d", p)] = true
		}
	}
	return m
}()

func validateEIN(v string) error {
	if !allDigits(v, 9) {
		return fmt.Errorf("EIN %q must have 9 digits (XX-XXXXXXX)", v)
	}
	if !einPrefixes[v[:2]] {
		return fmt.Errorf("EIN %s has prefix %s, which the IRS does not assign", v, v[:2])
	}
	return nil
}

// reGermanLabel is USt-IdNr, normalised, with its t maybe misread
// ("USI-IdNr", "US1-IdNr").
var reGermanLabel = regexp.MustCompile(`^US[TIL1]ID(?:NR)?`)

// reSwissUIDRead and reNorwegianVATRead are the Swiss and Norwegian VAT
// numbers as printed, after a label ("MWST-Nr. CHE-123.456.789 MWST",
// "Org.nr. NO 912 345 678 MVA"), normalised: the register's word makes a
// business number a VAT number, and without it the number is none.
var (
	reSwissUIDRead     = regexp.MustCompile(`CHE(\d{9})(MWST|TVA|IVA)$`)
	reNorwegianVATRead = regexp.MustCompile(`(?:^|ORGNR|NR|:)(?:NO)?(\d{9})MVA$`)
)

// DetectTaxID guesses the scheme of a tax ID from its shape and the country
// setting: "ABN 51 824 753 556" is an ABN, "GB123456789" a UK VAT number.
// It returns SchemeOther when the shape fits nothing known.
func DetectTaxID(s string, country Country) TaxID {
	v := NormalizeTaxID(s)
	if m := reSwissUIDRead.FindStringSubmatch(v); m != nil {
		return TaxID{Scheme: SchemeCHVAT, Value: "CHE" + m[1] + m[2]}
	}
	if m := reNorwegianVATRead.FindStringSubmatch(v); m != nil {
		return TaxID{Scheme: SchemeNOVAT, Value: "NO" + m[1] + "MVA"}
	}
	abnLabel := strings.HasPrefix(v, "ABN")
	german := reGermanLabel.MatchString(v)
	v = reGermanLabel.ReplaceAllString(v, "USTIDNR")
	// The labels printed before the number: English ones, and the EU's
	// (USt-IdNr., TVA intracom., BTW-nr, P.IVA, NIF/CIF).
	for _, p := range []string{
		"ABN", "GSTNO", "GSTREGNO", "GSTID", "GST", "VATNO", "VATREGNO", "VAT", "EIN", "SST",
		"USTIDNR", "USTID", "UST", "TVAINTRACOM", "TVAINTRA", "TVA", "BTWNR", "BTW", "PARTITAIVA", "PIVA", "IVA", "NIF", "CIF", "NIPC", "UIDNR", "UID", "YTUNNUS", "NO:", "NO", ":", "#",
	} {
		v = strings.TrimPrefix(v, p)
	}
	v = strings.TrimLeft(v, ":#")
	switch {
	case german && allDigits(v, 10) && v[0] == '0' && validateEUVAT("DE"+v[1:]) == nil:
		// "USt-IdNr 0050792060": the DE read as one 0.
		return TaxID{Scheme: SchemeEUVAT, Value: "DE" + v[1:]}
	case allDigits(v, 11) && (country == CountryAU || country == "" || country == CountryOther) && validateABN(v) == nil:
		return TaxID{Scheme: SchemeABN, Value: v}
	case strings.HasPrefix(v, "GB") || strings.HasPrefix(v, "XI"):
		return TaxID{Scheme: SchemeUKVAT, Value: v}
	case len(v) > 4 && euVATFormats[v[:2]] != nil:
		return TaxID{Scheme: SchemeEUVAT, Value: v}
	case country == CountryUK && (allDigits(v, 9) || allDigits(v, 12)):
		return TaxID{Scheme: SchemeUKVAT, Value: v}
	case country == CountryAU && allDigits(v, 11):
		return TaxID{Scheme: SchemeABN, Value: v}
	case allDigits(v, 12) && abnLabel:
		// An ABN with a speck read as a digit beside it ("ABN 45 912 532
		// 781 4"): RepairTaxID may drop it.
		return TaxID{Scheme: SchemeABN, Value: v}
	case country == CountryNZ && (allDigits(v, 8) || allDigits(v, 9)):
		return TaxID{Scheme: SchemeNZGST, Value: v}
	case country == CountryUS && allDigits(v, 9):
		return TaxID{Scheme: SchemeUSEIN, Value: v}
	case allDigits(v, 12) && (country == CountryMY || country == "" || country == CountryOther):
		return TaxID{Scheme: SchemeMYGST, Value: v}
	case regexp.MustCompile(`^[A-Z]\d{14}$`).MatchString(v):
		return TaxID{Scheme: SchemeMYSST, Value: v}
	}
	return TaxID{Scheme: SchemeOther, Value: v}
}
