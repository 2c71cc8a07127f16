#!/usr/bin/env bash
# Takes screenshots of the real app under Xvfb on a 1366×768 screen (a small
# laptop's) with demo libraries made from the shared SROIE receipts:
# docs/screenshot-{first-run,main,review,zoomed,invoice,reading,computer,country,clients,rules,statements,statement-account}.png.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/bin/shoebox
data=${SHOEBOX_DEMO_DATA:-../shared/data/sroie-dev}
lib=build/demo-library
fresh=build/demo-first-run
out=docs
mkdir -p "$out"
files=$(ls "$data"/*.jpg | head -10)
if [ ! -f "$lib/library.db" ]; then
  $bin import --library "$lib" $files >/dev/null
  $bin process --library "$lib" --country MY >/dev/null
fi
# A first start: the default library (here $fresh as SHOEBOX_HOME) with
# receipts added and nobody has chosen a country for: the app names it the
# first client and asks where the receipts are from.
rm -rf "$fresh"
SHOEBOX_HOME=$fresh $bin import $files >/dev/null
# An invoice PDF, shown at 100% (its page drawn at the zoom's resolution).
invoice=${SHOEBOX_DEMO_INVOICE:-../shared/data/einvoices/ZUGFeRDv2/correct/Mustangproject/MustangGnuaccountingBeispielRE-20201121_508.pdf}
pdflib=build/demo-invoice
if [ -f "$invoice" ] && [ ! -f "$pdflib/library.db" ]; then
  $bin import --library "$pdflib" "$invoice" >/dev/null
  $bin process --library "$pdflib" --country EU >/dev/null 2>&1
fi

# A bookkeeper's clients: one with receipts, one with supplier rules.
home=build/demo-clients
if [ ! -f "$home/clients/clients.json" ]; then
  rm -rf "$home"
  for c in "Harbour Café Pty Ltd:AU" "Lee & Tan Trading:MY" "North Shore Plumbing:AU"; do
    SHOEBOX_HOME=$home $bin clients new "${c%:*}" --country "${c##*:}" >/dev/null
  done
  SHOEBOX_HOME=$home $bin books accounts --defaults --client "Harbour Café Pty Ltd" >/dev/null
  SHOEBOX_HOME=$home $bin books rule "Officeworks" --account 453 --tax-code GST --payment card --client "Harbour Café Pty Ltd" >/dev/null
  SHOEBOX_HOME=$home $bin books rule "Bunnings Warehouse" --account 473 --tax-code GST --client "Harbour Café Pty Ltd" >/dev/null
  SHOEBOX_HOME=$home $bin books rule "Sydney Water" --account 445 --tax-code FRE --payment "direct debit" --client "Harbour Café Pty Ltd" >/dev/null
  SHOEBOX_HOME=$home $bin import --client "Lee & Tan Trading" $files >/dev/null
  SHOEBOX_HOME=$home $bin process --client "Lee & Tan Trading" >/dev/null 2>&1
fi

# Bank statements: the statement the bank tests build from the dev receipts'
# labels, imported and matched.
stmts=build/demo-statements
if [ ! -f "$stmts/library/library.db" ]; then
  rm -rf "$stmts"
  mkdir -p "$stmts"
  SHOEBOX_BANK_FIXTURE=$PWD/$stmts go test -tags migrated_fynedo,faultinject ./bank/ -run TestDevStatementMatches >/dev/null
  $bin statements import "$stmts/dev-statement.csv" --account "Business card" --library "$stmts/library" >/dev/null
  $bin match --library "$stmts/library" >/dev/null
fi

display=:${SHOEBOX_XVFB_DISPLAY:-97}
Xvfb "$display" -screen 0 1366x768x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true' EXIT
sleep 1
export DISPLAY=$display LIBGL_ALWAYS_SOFTWARE=1
# Fyne's own settings stay out of the user's home.
export XDG_CONFIG_HOME=${TMPDIR:-/tmp}/shoebox-screenshot-config
app=
start() { # library, seconds to wait, app arguments...
  local l=$1 wait=$2; shift 2
  if [ -n "$l" ]; then set -- --library "$l" "$@"; fi
  $bin "$@" >/dev/null 2>&1 &
  app=$!
  # The window first (slow on a busy machine), then time to draw it.
  timeout 60 xdotool search --sync --onlyvisible --name Shoebox >/dev/null || true
  sleep "$wait"
}
stop() {
  kill $app 2>/dev/null || true
  for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 $app 2>/dev/null || break; sleep 0.5; done
  kill -9 $app 2>/dev/null || true
  wait $app 2>/dev/null || true
}
shot() { import -window root "$out/screenshot-$1.png"; echo "wrote $out/screenshot-$1.png"; }

export SHOEBOX_HOME=$fresh; start "" 5; shot first-run; stop; unset SHOEBOX_HOME
start "$lib" 5; shot main; stop
# An unsure date: its ? mark, the reason and the outline on the scan.
start "$lib" 6 --show 9 --focus date; shot review; stop
# Zoomed to 150%: focusing the total scrolls the scan to its outline, then
# the wheel moves the page a little further.
start "$lib" 6 --show 4 --zoom 1.5 --focus total
win=$(xdotool search --onlyvisible --name Shoebox | head -1)
eval "$(xdotool getwindowgeometry --shell "$win")"
xdotool mousemove $((X + WIDTH * 42 / 100)) $((Y + HEIGHT / 2)) click 5 click 5
sleep 1; shot zoomed; stop
if [ -f "$pdflib/library.db" ]; then start "$pdflib" 8 --show 1 --zoom 1; shot invoice; stop; fi
start "$lib" 5 --settings Reading; shot reading; stop
start "$lib" 5 --settings "This computer"; shot computer; stop
start "$lib" 5 --settings "Country & tax"; shot country; stop
export SHOEBOX_HOME=$home
start "" 5 --client "Lee & Tan Trading" --show 1 --clients; shot clients; stop
start "" 5 --client "Harbour Café Pty Ltd" --rules; shot rules; stop
# The Statements window with a foreign-currency proposal chosen (its reason
# below the table), then its Account page.
start "$stmts/library" 6 --statements
win=$(xdotool search --onlyvisible --name '^Statements' | head -1)
eval "$(xdotool getwindowgeometry --shell "$win")"
xdotool mousemove $((X + 250)) $((Y + 292)) click 1
sleep 1; import -window "$win" "$out/screenshot-statements.png"; echo "wrote $out/screenshot-statements.png"
xdotool mousemove $((X + WIDTH - 73)) $((Y + 21)) click 1
sleep 1; import -window "$win" "$out/screenshot-statement-account.png"; echo "wrote $out/screenshot-statement-account.png"
stop
