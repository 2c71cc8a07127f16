// Package einvoice reads structured electronic invoices exactly: the XML a
// Factur-X / ZUGFeRD / XRechnung PDF carries in its EmbeddedFiles, and bare
// UN/CEFACT CII (ZUGFeRD 1 and 2, Factur-X, XRechnung CII) and OASIS UBL 2.1
// Invoice and CreditNote files (XRechnung UBL, Peppol BIS Billing 3.0,
// PINT A-NZ). It maps them onto a receipt.Receipt and checks the invoice's
// own arithmetic against the EN 16931 business rules. Hostile XML is refused:
// no document type declarations (so no entities, internal or external), a
// size limit and a depth limit. It is pure Go and imports only receipt.
package einvoice
