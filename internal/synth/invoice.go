package synth

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"time"
)

// InvoiceLangs are the languages GenerateInvoice prints invoices in.
var InvoiceLangs = []string{"en", "de", "fr", "nl", "it", "es"}

// Party is an invoice's seller or buyer as printed.
type Party struct {
	Name    string
	Brand   string // the letterhead's short name, "" when the letterhead prints Name
	Street  string
	City    string // postcode and town as the country writes them
	Country string // ISO 3166
	VATID   string
	Label   string // how the VAT ID is labelled ("USt-IdNr.")
}

// InvoiceLine is one row of the invoice's table.
type InvoiceLine struct {
	Text      string
	Qty       int
	UnitCents int64
	Rate      int // percent
	// Heading rows (a section title) and notes (a serial number) carry no
	// amounts: they are no lines of the invoice.
	Heading, Note bool
}

// Net is the row's net amount in cents.
func (l InvoiceLine) Net() int64 { return int64(l.Qty) * l.UnitCents }

// Invoice is a synthetic printed invoice with its truth.
type Invoice struct {
	Lang           string
	Credit         bool
	Number         string
	Issue, Due     time.Time
	Delivery       time.Time // zero when none is printed
	Currency       string
	Seller, Buyer  Party
	Lines          []InvoiceLine
	PaidCents      int64
	IBAN           string
	words          invoiceWords
	markStyle      int // 0: code after the totals, 1: symbol, 2: a labelled currency line in the meta block
	longDate       bool
	negative       bool // a credit note printing its amounts with a minus
	sellerRight    bool // the letterhead at the right, the meta block below it
	senderLine     bool
	buyerLabelled  bool
	titleNumber    bool // the number printed in the title ("Rechnung Nr. 123") instead of the meta block
	taxBasisOnLine bool // "MwSt. 19 % auf 100,00"
}

// TaxBand is what one rate adds up to.
type TaxBand struct {
	Rate          int
	NetCents, Tax int64
}

// Bands are the invoice's tax rates with their net and tax, largest rate first.
func (inv *Invoice) Bands() []TaxBand {
	var out []TaxBand
	for _, l := range inv.Lines {
		if l.Heading || l.Note {
			continue
		}
		k := -1
		for i, b := range out {
			if b.Rate == l.Rate {
				k = i
			}
		}
		if k < 0 {
			out = append(out, TaxBand{Rate: l.Rate})
			k = len(out) - 1
		}
		out[k].NetCents += l.Net()
	}
	for i := range out {
		out[i].Tax = (out[i].NetCents*int64(out[i].Rate) + 50) / 100
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Rate > out[j-1].Rate; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Totals are the invoice's net, tax and gross sums in cents.
func (inv *Invoice) Totals() (net, tax, gross int64) {
	for _, b := range inv.Bands() {
		net += b.NetCents
		tax += b.Tax
	}
	return net, tax, net + tax
}

// invoiceWords are one language's printed words; each list is drawn from.
type invoiceWords struct {
	title, credit, number, date, due, delivery, buyer, customerNo, orderNo []string
	head                                                                   [5]string
	net, tax, gross, paid, amountDue, carried, pageOf, currency            []string
	vatLabel, months                                                       []string
	terms                                                                  []string // with the due date
	decimalComma                                                           bool
	group                                                                  string
	dateLayout                                                             string
	longDate                                                               func(t time.Time, months []string) string
	countries                                                              []invoiceCountry
	items, headings, notes                                                 []string
	stems, trades                                                          []string
	currencies                                                             []string // the home currency first
}

type invoiceCountry struct {
	code, vatPrefix string
	vatDigits       int
	vatSuffix       string
	legal           []string
	streets, cities []string
}

func dayMonthYear(sep string) func(time.Time, []string) string {
	return func(t time.Time, m []string) string {
		return fmt.Sprintf("%d%s%s %d", t.Day(), sep, m[t.Month()-1], t.Year())
	}
}

var invoiceLanguages = map[string]invoiceWords{
	"en": {
		title: []string{"INVOICE", "Invoice", "TAX INVOICE"}, credit: []string{"CREDIT NOTE", "Credit Note"},
		number: []string{"Invoice No.", "Invoice number", "Invoice #"}, date: []string{"Invoice date", "Date of issue", "Issue date"},
		due: []string{"Due date", "Payment due"}, delivery: []string{"Delivery date", "Date of supply"},
		buyer: []string{"Bill to", "Invoice to", "Billed to"}, customerNo: []string{"Customer No.", "Account number"}, orderNo: []string{"Order No.", "PO number"},
		head: [5]string{"Description", "Qty", "Unit price", "VAT", "Amount"},
		net:  []string{"Subtotal", "Net total", "Total excl. VAT"}, tax: []string{"VAT %s%%"}, gross: []string{"Total", "Invoice total", "Total incl. VAT"},
		paid: []string{"Amount paid", "Less paid"}, amountDue: []string{"Amount due", "Balance due"}, carried: []string{"Carried forward"},
		pageOf: []string{"Page %d of %d"}, currency: []string{"Currency"}, vatLabel: []string{"VAT No.", "VAT Reg. No."},
		months: []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
		terms:  []string{"Payment due by %s.", "Please pay by %s."}, group: ",", dateLayout: "02/01/2006", longDate: dayMonthYear(" "),
		countries: []invoiceCountry{
			{"GB", "GB", 9, "", []string{"Ltd", "Limited", "PLC"}, []string{"12 High Street", "4 Station Road", "77 Church Lane", "Unit 5, Riverside Park"}, []string{"London SW1A 1AA", "Leeds LS1 4DY", "Bristol BS1 5TR", "Manchester M2 3AW"}},
			{"IE", "IE", 7, "W", []string{"Ltd", "Limited", "DAC"}, []string{"21 Main Street", "8 Quay Road"}, []string{"Dublin 2", "Cork T12 X2Y3"}},
		},
		items:    []string{"Consulting services", "Website hosting", "Annual support contract", "Laser printer", "Office chair", "Design work", "Software licence", "Travel expenses", "Training day", "Network cabling", "Server maintenance", "Printing of brochures"},
		headings: []string{"Hardware", "Services", "Project phase 1"}, notes: []string{"Serial no. SN-48213", "as agreed by e-mail", "incl. delivery"},
		stems:  []string{"Brightwater", "Kestrel", "Harbourside", "Oakridge", "Thornbury", "Bluebell", "Wexford", "Ashdown"},
		trades: []string{"Consulting", "Print", "Systems", "Logistics", "Software", "Supplies"}, currencies: []string{"GBP", "EUR", "USD"},
	},
	"de": {
		title: []string{"Rechnung", "RECHNUNG"}, credit: []string{"Gutschrift", "GUTSCHRIFT"},
		number: []string{"Rechnungsnummer", "Rechnungs-Nr.", "Rechnung Nr."}, date: []string{"Rechnungsdatum", "Datum"},
		due: []string{"Fällig am", "Zahlbar bis"}, delivery: []string{"Lieferdatum", "Leistungsdatum"},
		buyer: []string{"Rechnungsempfänger", "Rechnungsadresse"}, customerNo: []string{"Kundennummer", "Kunden-Nr."}, orderNo: []string{"Bestellnummer", "Auftrags-Nr."},
		head: [5]string{"Bezeichnung", "Menge", "Einzelpreis", "MwSt.", "Gesamt"},
		net:  []string{"Nettobetrag", "Summe netto", "Zwischensumme"}, tax: []string{"zzgl. %s %% MwSt.", "USt. %s %%"}, gross: []string{"Gesamtbetrag", "Rechnungsbetrag", "Bruttobetrag"},
		paid: []string{"Bereits bezahlt", "Anzahlung"}, amountDue: []string{"Zu zahlen", "Offener Betrag"}, carried: []string{"Übertrag"},
		pageOf: []string{"Seite %d von %d"}, currency: []string{"Währung"}, vatLabel: []string{"USt-IdNr.", "USt-ID"},
		months: []string{"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"},
		terms:  []string{"Zahlbar bis %s ohne Abzug.", "Bitte überweisen Sie den Betrag bis zum %s."}, decimalComma: true, group: ".", dateLayout: "02.01.2006", longDate: dayMonthYear(". "),
		countries: []invoiceCountry{
			{"DE", "DE", 9, "", []string{"GmbH", "AG", "GmbH & Co. KG", "e.K."}, []string{"Hauptstraße 12", "Industriestr. 7", "Am Markt 3", "Lindenallee 45"}, []string{"10115 Berlin", "80331 München", "50667 Köln", "01067 Dresden"}},
			{"AT", "ATU", 8, "", []string{"GmbH", "AG", "KG"}, []string{"Mariahilfer Straße 20", "Herrengasse 9"}, []string{"1070 Wien", "8010 Graz"}},
		},
		items:    []string{"Beratungsleistung", "Webhosting Paket", "Wartungsvertrag", "Laserdrucker", "Bürostuhl", "Grafikdesign", "Softwarelizenz", "Reisekosten", "Schulung", "Netzwerkverkabelung", "Serverwartung", "Druck von Flyern"},
		headings: []string{"Hardware", "Dienstleistungen", "Projektphase 1"}, notes: []string{"Seriennummer: SN-48213", "laut Angebot vom Vormonat", "inkl. Lieferung"},
		stems:  []string{"Nordwind", "Kessler", "Alpenblick", "Morgenrot", "Bergmann", "Lindner", "Falkenstein", "Weidemann"},
		trades: []string{"Logistik", "Druck", "Systeme", "Elektro", "Software", "Bürotechnik"}, currencies: []string{"EUR", "CHF", "USD"},
	},
	"fr": {
		title: []string{"FACTURE", "Facture"}, credit: []string{"AVOIR", "Avoir"},
		number: []string{"N° de facture", "Facture n°", "Numéro de facture"}, date: []string{"Date de facture", "Date d'émission"},
		due: []string{"Date d'échéance", "Échéance"}, delivery: []string{"Date de livraison"},
		buyer: []string{"Facturé à", "Adresse de facturation"}, customerNo: []string{"N° client", "Code client"}, orderNo: []string{"N° de commande", "Réf. commande"},
		head: [5]string{"Désignation", "Qté", "Prix unit. HT", "TVA", "Montant HT"},
		net:  []string{"Total HT", "Montant HT"}, tax: []string{"TVA %s %%"}, gross: []string{"Total TTC", "Montant TTC"},
		paid: []string{"Acompte versé", "Déjà réglé"}, amountDue: []string{"Net à payer", "Reste à payer"}, carried: []string{"Report"},
		pageOf: []string{"Page %d sur %d", "Page %d/%d"}, currency: []string{"Devise"}, vatLabel: []string{"N° TVA intracom.", "TVA intracommunautaire"},
		months: []string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"},
		terms:  []string{"Paiement à réception, au plus tard le %s.", "À régler avant le %s."}, decimalComma: true, group: " ", dateLayout: "02/01/2006", longDate: dayMonthYear(" "),
		countries: []invoiceCountry{
			{"FR", "FR", 11, "", []string{"SARL", "SAS", "SA"}, []string{"12 rue des Lilas", "45 avenue Jean Jaurès", "3 place du Marché", "8 boulevard Voltaire"}, []string{"75011 Paris", "69002 Lyon", "33000 Bordeaux", "13001 Marseille"}},
			{"BE", "BE0", 9, "", []string{"SRL", "SA"}, []string{"Rue de la Loi 16", "Avenue Louise 54"}, []string{"1000 Bruxelles", "4000 Liège"}},
		},
		items:    []string{"Prestation de conseil", "Hébergement web", "Contrat de maintenance", "Imprimante laser", "Fauteuil de bureau", "Création graphique", "Licence logicielle", "Frais de déplacement", "Formation", "Câblage réseau", "Maintenance serveur", "Impression de brochures"},
		headings: []string{"Matériel", "Prestations", "Phase 1 du projet"}, notes: []string{"N° de série : SN-48213", "selon devis accepté", "livraison comprise"},
		stems:  []string{"Rivière", "Beaulieu", "Clairmont", "Lavande", "Montclair", "Belrose", "Vauclair", "Dumas"},
		trades: []string{"Conseil", "Imprimerie", "Systèmes", "Électricité", "Logiciels", "Fournitures"}, currencies: []string{"EUR", "CHF", "USD"},
	},
	"nl": {
		title: []string{"FACTUUR", "Factuur"}, credit: []string{"CREDITNOTA", "Creditnota"},
		number: []string{"Factuurnummer", "Factuurnr."}, date: []string{"Factuurdatum"},
		due: []string{"Vervaldatum"}, delivery: []string{"Leverdatum"},
		buyer: []string{"Factuuradres", "Klant"}, customerNo: []string{"Klantnummer"}, orderNo: []string{"Ordernummer", "Uw referentie"},
		head: [5]string{"Omschrijving", "Aantal", "Prijs", "BTW", "Bedrag"},
		net:  []string{"Subtotaal", "Totaal excl. BTW"}, tax: []string{"BTW %s%%"}, gross: []string{"Totaal incl. BTW", "Totaal"},
		paid: []string{"Reeds betaald"}, amountDue: []string{"Te betalen", "Openstaand bedrag"}, carried: []string{"Transport"},
		pageOf: []string{"Pagina %d van %d"}, currency: []string{"Valuta"}, vatLabel: []string{"BTW-nummer", "Btw-nr."},
		months: []string{"januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober", "november", "december"},
		terms:  []string{"Gelieve te betalen vóór %s.", "Betaling uiterlijk %s."}, decimalComma: true, group: ".", dateLayout: "02-01-2006", longDate: dayMonthYear(" "),
		countries: []invoiceCountry{
			{"NL", "NL", 9, "B01", []string{"B.V.", "N.V."}, []string{"Keizersgracht 123", "Stationsplein 8", "Dorpsstraat 41", "Marktweg 17"}, []string{"1015 CJ Amsterdam", "3511 ED Utrecht", "2511 AB Den Haag", "5611 AH Eindhoven"}},
			{"BE", "BE0", 9, "", []string{"BV", "NV"}, []string{"Meir 24", "Korenmarkt 11"}, []string{"2000 Antwerpen", "9000 Gent"}},
		},
		items:    []string{"Advieswerkzaamheden", "Webhosting pakket", "Onderhoudscontract", "Laserprinter", "Bureaustoel", "Grafisch ontwerp", "Softwarelicentie", "Reiskosten", "Training", "Netwerkbekabeling", "Serveronderhoud", "Drukwerk folders"},
		headings: []string{"Hardware", "Diensten", "Projectfase 1"}, notes: []string{"Serienummer: SN-48213", "volgens offerte", "inclusief levering"},
		stems:  []string{"Vermeer", "Dijkstra", "Zeewind", "Oranjehof", "Molenaar", "Brink", "Waterkant", "Hoogland"},
		trades: []string{"Advies", "Drukkerij", "Systemen", "Installatie", "Software", "Kantoorartikelen"}, currencies: []string{"EUR", "USD", "GBP"},
	},
	"it": {
		title: []string{"FATTURA", "Fattura"}, credit: []string{"NOTA DI CREDITO", "Nota di credito"},
		number: []string{"Fattura n.", "Numero fattura", "N. documento"}, date: []string{"Data fattura", "Data documento", "Data emissione"},
		due: []string{"Scadenza", "Data scadenza"}, delivery: []string{"Data consegna"},
		buyer: []string{"Fatturato a", "Destinatario", "Spett.le"}, customerNo: []string{"Codice cliente"}, orderNo: []string{"Rif. ordine"},
		head: [5]string{"Descrizione", "Q.tà", "Prezzo unitario", "IVA", "Importo"},
		net:  []string{"Imponibile", "Totale imponibile"}, tax: []string{"IVA %s%%"}, gross: []string{"Totale fattura", "Totale documento"},
		paid: []string{"Acconto ricevuto", "Già pagato"}, amountDue: []string{"Totale da pagare", "Netto a pagare"}, carried: []string{"Riporto"},
		pageOf: []string{"Pagina %d di %d"}, currency: []string{"Valuta"}, vatLabel: []string{"P.IVA", "Partita IVA"},
		months: []string{"gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"},
		terms:  []string{"Pagamento entro il %s.", "Scadenza pagamento: %s."}, decimalComma: true, group: ".", dateLayout: "02/01/2006", longDate: dayMonthYear(" "),
		countries: []invoiceCountry{
			{"IT", "IT", 11, "", []string{"S.r.l.", "S.p.A.", "S.n.c."}, []string{"Via Roma 12", "Corso Italia 45", "Piazza Garibaldi 3", "Via Verdi 27"}, []string{"20121 Milano", "00184 Roma", "10121 Torino", "40121 Bologna"}},
		},
		items:    []string{"Consulenza", "Hosting sito web", "Contratto di assistenza", "Stampante laser", "Sedia da ufficio", "Progettazione grafica", "Licenza software", "Spese di trasferta", "Corso di formazione", "Cablaggio di rete", "Manutenzione server", "Stampa depliant"},
		headings: []string{"Hardware", "Servizi", "Fase 1 del progetto"}, notes: []string{"Matricola: SN-48213", "come da preventivo", "trasporto incluso"},
		stems:  []string{"Rossi", "Bellavista", "Colombo", "Aurora", "Ferretti", "Montebello", "Galli", "Serena"},
		trades: []string{"Consulenze", "Tipografia", "Sistemi", "Impianti", "Software", "Forniture"}, currencies: []string{"EUR", "CHF", "USD"},
	},
	"es": {
		title: []string{"FACTURA", "Factura"}, credit: []string{"FACTURA RECTIFICATIVA", "Nota de abono"},
		number: []string{"Nº de factura", "Número de factura", "Factura nº"}, date: []string{"Fecha de factura", "Fecha de emisión"},
		due: []string{"Fecha de vencimiento", "Vencimiento"}, delivery: []string{"Fecha de entrega"},
		buyer: []string{"Facturar a", "Datos del cliente", "Cliente"}, customerNo: []string{"Nº de cliente"}, orderNo: []string{"Nº de pedido"},
		head: [5]string{"Descripción", "Cant.", "Precio unit.", "IVA", "Importe"},
		net:  []string{"Base imponible", "Subtotal"}, tax: []string{"IVA %s%%"}, gross: []string{"Total factura", "Importe total"},
		paid: []string{"Pagado a cuenta", "Anticipo"}, amountDue: []string{"Total a pagar", "Pendiente de pago"}, carried: []string{"Suma y sigue"},
		pageOf: []string{"Página %d de %d"}, currency: []string{"Moneda", "Divisa"}, vatLabel: []string{"CIF", "NIF"},
		months: []string{"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"},
		terms:  []string{"Pago antes del %s.", "Vencimiento del pago: %s."}, decimalComma: true, group: ".", dateLayout: "02/01/2006",
		longDate: func(t time.Time, m []string) string {
			return fmt.Sprintf("%d de %s de %d", t.Day(), m[t.Month()-1], t.Year())
		},
		countries: []invoiceCountry{
			{"ES", "ES", 0, "", []string{"S.L.", "S.A.", "S.L.U."}, []string{"Calle Mayor 5", "Avenida de la Constitución 22", "Paseo de Gracia 41", "Calle Alcalá 90"}, []string{"28013 Madrid", "08007 Barcelona", "41001 Sevilla", "46002 Valencia"}},
		},
		items:    []string{"Servicios de consultoría", "Alojamiento web", "Contrato de mantenimiento", "Impresora láser", "Silla de oficina", "Diseño gráfico", "Licencia de software", "Gastos de viaje", "Formación", "Cableado de red", "Mantenimiento de servidor", "Impresión de folletos"},
		headings: []string{"Material", "Servicios", "Fase 1 del proyecto"}, notes: []string{"Nº de serie: SN-48213", "según presupuesto aceptado", "portes incluidos"},
		stems:  []string{"Alameda", "Castellano", "Mirador", "Solana", "Robledo", "Marina", "Valverde", "Olivar"},
		trades: []string{"Consultores", "Imprenta", "Sistemas", "Instalaciones", "Software", "Suministros"}, currencies: []string{"EUR", "USD", "GBP"},
	},
}

// taxRates are each country's standard rate first, then a reduced one.
var taxRates = map[string][]int{"GB": {20, 5}, "IE": {23, 13}, "DE": {19, 7}, "AT": {20, 10}, "FR": {20, 10}, "BE": {21, 6}, "NL": {21, 9}, "IT": {22, 10}, "ES": {21, 10}}

// GenerateInvoice makes a printed invoice in lang ("de"), the same for
// the same seed: seller and buyer with their addresses, number, dates,
// a line table (now and then with headings and notes, long enough for a
// second page), totals per tax rate, sometimes a prepayment, a credit
// note one time in five and a foreign currency one time in four.
func GenerateInvoice(seed int64, lang string) (*Invoice, error) {
	w, ok := invoiceLanguages[lang]
	if !ok {
		return nil, fmt.Errorf("no invoice words for language %q (have %s)", lang, strings.Join(InvoiceLangs, ", "))
	}
	rng := rand.New(rand.NewSource(seed))
	inv := &Invoice{Lang: lang, words: w}
	c := w.countries[rng.Intn(len(w.countries))]
	inv.Seller = party(rng, w, c, true)
	bc := w.countries[rng.Intn(len(w.countries))]
	for inv.Buyer.Name == "" || inv.Buyer.Name == inv.Seller.Name || strings.Fields(inv.Buyer.Name)[0] == strings.Fields(inv.Seller.Name)[0] {
		inv.Buyer = party(rng, w, bc, false)
	}
	inv.Credit = rng.Intn(5) == 0
	inv.negative = inv.Credit && rng.Intn(2) == 0
	inv.Currency = w.currencies[0]
	if rng.Intn(4) == 0 {
		inv.Currency = w.currencies[1+rng.Intn(len(w.currencies)-1)]
	}
	inv.markStyle = rng.Intn(3)
	inv.longDate = rng.Intn(4) == 0
	inv.sellerRight = rng.Intn(3) == 0
	inv.senderLine = rng.Intn(2) == 0
	inv.buyerLabelled = !inv.senderLine || rng.Intn(2) == 0
	inv.titleNumber = rng.Intn(5) == 0
	inv.taxBasisOnLine = rng.Intn(3) == 0
	prefix := []string{"", "RE-", "INV-", "F", "2024/"}[rng.Intn(5)]
	inv.Number = fmt.Sprintf("%s%d%04d", prefix, 2024+rng.Intn(2), rng.Intn(10000))
	inv.Issue = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, rng.Intn(700))
	inv.Due = inv.Issue.AddDate(0, 0, []int{14, 30, 10}[rng.Intn(3)])
	if rng.Intn(2) == 0 {
		inv.Delivery = inv.Issue.AddDate(0, 0, -1-rng.Intn(9))
	}
	inv.IBAN = fmt.Sprintf("%s%02d %04d %04d %04d %04d %02d", c.code, 10+rng.Intn(89), rng.Intn(10000), rng.Intn(10000), rng.Intn(10000), rng.Intn(10000), rng.Intn(100))
	rates := taxRates[c.code]
	n := 1 + rng.Intn(6)
	if rng.Intn(4) == 0 {
		n = 30 + rng.Intn(25) // a table over more than one page
	}
	for i := 0; i < n; i++ {
		if i > 0 && rng.Intn(8) == 0 {
			inv.Lines = append(inv.Lines, InvoiceLine{Text: pick(rng, w.headings), Heading: true})
		}
		l := InvoiceLine{Text: pick(rng, w.items), Qty: 1 + rng.Intn(5), UnitCents: int64(500 + rng.Intn(90000)), Rate: rates[0]}
		if rng.Intn(5) == 0 {
			l.Rate = rates[1]
		}
		inv.Lines = append(inv.Lines, l)
		if rng.Intn(8) == 0 {
			inv.Lines = append(inv.Lines, InvoiceLine{Text: pick(rng, w.notes), Note: true})
		}
	}
	if _, _, gross := inv.Totals(); !inv.Credit && rng.Intn(6) == 0 {
		inv.PaidCents = gross / 100 * 30 // a prepayment of about 30%
	}
	return inv, nil
}

// vatID is a VAT number of the country whose check digits hold, as the
// receipts' presets make them, so that a right reading validates.
func vatID(rng *rand.Rand, c invoiceCountry) string {
	switch c.code {
	case "DE":
		first := fmt.Sprintf("%08d", rng.Intn(1e8))
		return fmt.Sprintf("DE%s%d", first, germanCheck(first))
	case "FR":
		siren := 100000000 + rng.Intn(899999999)
		return fmt.Sprintf("FR%02d%09d", (12+3*(siren%97))%97, siren)
	case "BE":
		n := rng.Intn(1e7)
		return fmt.Sprintf("BE0%07d%02d", n, 97-n%97)
	case "IT":
		d := fmt.Sprintf("%010d", rng.Intn(1e10))
		return "IT" + d + strconv.Itoa(luhnCheck(d))
	case "ES":
		d := fmt.Sprintf("%07d", rng.Intn(1e7))
		return "ESB" + d + strconv.Itoa(cifCheck(d))
	case "IE":
		d := fmt.Sprintf("%07d", rng.Intn(1e7))
		return "IE" + d + ieCheck(d)
	case "GB":
		return "GB" + strings.ReplaceAll(validUKVAT(rng), " ", "")
	case "AT":
		return atVATID(rng)
	case "NL":
		return nlVATID(rng)
	}
	var digits strings.Builder
	for range c.vatDigits {
		digits.WriteByte(byte('0' + rng.Intn(10)))
	}
	return c.vatPrefix + digits.String() + c.vatSuffix
}

func party(rng *rand.Rand, w invoiceWords, c invoiceCountry, seller bool) Party {
	stem := pick(rng, w.stems)
	p := Party{Country: c.code, Street: pick(rng, c.streets), City: pick(rng, c.cities)}
	p.Name = stem + " " + pick(rng, w.trades) + " " + pick(rng, c.legal)
	if seller && rng.Intn(3) == 0 {
		p.Brand = strings.ToUpper(stem)
	}
	p.VATID = vatID(rng, c)
	p.Label = pick(rng, w.vatLabel)
	return p
}
