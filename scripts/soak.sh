#!/usr/bin/env bash
# Soak run (issue 38, "Must show"): against one private library and client
# registry, at once:
#   3 `shoebox process` runs, an `import` of 300 receipts, 5 exports and
#   20 `clients new`,
# with 10 `kill -9`s of whichever of those processes are running, picked at
# random. A killed command is started again (as a user would), until it
# finishes. Afterwards it checks:
#   - every original in the library hashes (sha256) to its name, and every
#     receipt's original is there;
#   - every receipt is read exactly once (one reading saved per receipt, in
#     its history), none is left new, queued, being read or failed, and a
#     last `process` finds nothing to read;
#   - every client made is listed, and no client folder is unlisted;
#   - PRAGMA integrity_check is ok for the library and each client's;
#   - no temporary file of ours is left: in $TMPDIR, the export folder, the
#     library's originals/ and thumbs/, and the clients folder.
# A split export that runs before anything is read may exit 1 with "no
# dated receipts to split": a refusal, not a failure; the checks decide.
# It exits 0 when every check holds, 1 otherwise. Not part of `make test`:
# it takes minutes (about ten on two busy cores).
#
# Everything lives in one temporary folder (library, registry, $HOME,
# $XDG_CONFIG_HOME, $XDG_DATA_HOME, $XDG_CACHE_HOME, $TMPDIR), kept for
# inspection with SOAK_KEEP=1.
#
#   SHOEBOX      the binary (default build/bin/shoebox, from `make build`)
#   SOAK_DATA    folder with sroie-dev, sroie-more and receipts-us
#                (default /work/shared/data); the files are copied, never
#                changed
#   SOAK_FILES   how many receipts to import (300)
#   SOAK_KILLS   how many kill -9s (10)
#   SOAK_SEED    the seed for the choice of files, delays and victims
#   SOAK_KEEP    1 keeps the temporary folder
# SHOEBOX_PPOCR_DIR and the like are passed through.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${SHOEBOX:-build/bin/shoebox}")
data=${SOAK_DATA:-/work/shared/data}
nfiles=${SOAK_FILES:-300}
nkills=${SOAK_KILLS:-10}
seed=${SOAK_SEED:-$$}
RANDOM=$seed
for t in sqlite3 sha256sum realpath; do
	command -v $t >/dev/null || { echo "soak: needs $t" >&2; exit 2; }
done
[ -x "$bin" ] || { echo "soak: no binary at $bin (make build, or SHOEBOX=...)" >&2; exit 2; }

root=$(mktemp -d "${TMPDIR:-/tmp}/soak.XXXXXX")
cleanup() {
	# Stop whatever is still running (only our own jobs), then remove the folder.
	for p in $(jobs -p); do kill -9 "$p" 2>/dev/null; done
	for f in "$root"/pids/*; do
		[ -e "$f" ] || continue
		p=$(cat "$f")
		[ "$(readlink "/proc/$p/exe" 2>/dev/null)" = "$bin" ] && kill -9 "$p"
	done
	wait 2>/dev/null
	if [ "${SOAK_KEEP:-}" = 1 ]; then echo "soak: kept $root"; else rm -rf "$root"; fi
}
trap cleanup EXIT
mkdir -p "$root"/{files,home,config,data,cache,tmp,out,pids,log}
export HOME=$root/home XDG_CONFIG_HOME=$root/config XDG_DATA_HOME=$root/data XDG_CACHE_HOME=$root/cache
export SHOEBOX_HOME=$root/lib
export TMPDIR=$root/tmp
lib=$SHOEBOX_HOME
echo "soak: seed $seed, binary $bin, folder $root"

# --- the receipts: nfiles pictures from the three sets, chosen by the seed
ls "$data"/sroie-dev/*.jpg "$data"/sroie-more/*.jpg "$data"/receipts-us/*.jpg |
	awk -v s="$seed" 'BEGIN{srand(s)} {print rand() "\t" $0}' | sort -n | cut -f2 | head -n "$nfiles" |
	while read -r f; do
		set=$(basename "$(dirname "$f")")
		cp "$f" "$root/files/$set-$(basename "$f")"
	done
chmod -R u+w "$root/files"
nin=$(ls "$root/files" | wc -l)
nuniq=$(sha256sum "$root"/files/* | cut -d' ' -f1 | sort -u | wc -l)
echo "soak: $nin files ($nuniq different)"

# run SLOT ARGS...: runs the binary as one slot's process (its pid in pids/SLOT
# for the killer), logging to log/SLOT; returns the exit code.
run() {
	local slot=$1
	shift
	"$bin" "$@" >>"$root/log/$slot" 2>&1 &
	local p=$!
	echo "$p" >"$root/pids/$slot"
	wait "$p"
	local rc=$?
	rm -f "$root/pids/$slot"
	echo "== rc $rc" >>"$root/log/$slot"
	return $rc
}

# until-done SLOT ARGS...: runs it again after each kill -9 (rc 137).
until_done() {
	local slot=$1 rc
	while :; do
		run "$@"
		rc=$?
		if [ $rc -eq 137 ]; then
			echo "$slot" >>"$root/killed"
			continue
		fi
		echo "$slot $rc" >>"$root/done"
		return $rc
	done
}

start=$(date +%s)
{
	echo import
	printf 'process-%s\n' 1 2 3
	printf 'export-%s\n' 0 1 2 3 4
	printf 'clients-%s\n' $(seq 1 20)
} >"$root/slots"

# The import: one run over the folder.
(
	until_done import import "$root/files"
	echo import >>"$root/finished"
) &

# Three readers: each reads until the queue is empty, again while the
# import may still add receipts, and once more after it ended.
for i in 1 2 3; do
	(
		while :; do
			importing=0
			[ -e "$root/pids/import" ] || ! grep -q '^import ' "$root/done" 2>/dev/null && importing=1
			until_done "process-$i" process --engine ocr
			[ $importing = 1 ] || break
			sleep 2
		done
		echo "process-$i" >>"$root/finished"
	) &
done

# Five exports at random moments of the first minute: two onto the
# same CSV pair, a workbook, workbooks split by quarter and CSVs by month
# (all with --all: the receipts are read, not confirmed).
exports=("-o $root/out/all.csv --all" "-o $root/out/all.csv --all" "-o $root/out/all.xlsx --all"
	"-o $root/out/quarter.xlsx --all --split quarter" "-o $root/out/month.csv --all --split month")
for i in 0 1 2 3 4; do
	d=$((RANDOM % 60))
	(
		sleep $d
		# shellcheck disable=SC2086
		until_done "export-$i" export ${exports[$i]}
		echo "export-$i" >>"$root/finished"
	) &
done

# Twenty new clients in the first 20 seconds.
for i in $(seq 1 20); do
	d=$((RANDOM % 20))
	(
		sleep $d
		until_done "clients-$i" clients new "Soak Client $i" --country MY
		echo "clients-$i" >>"$root/finished"
	) &
done

# The killer: nkills kill -9s, a few seconds apart. Each picks a kind of
# command still to finish (process, import, export, clients) at random,
# waits for one of its runs to be running (exports and clients take a
# moment: picking among the processes running at one instant, the three
# long reading runs took nearly every kill) and kills it, the pid checked
# to be our binary.
(
	n=0
	while [ $n -lt "$nkills" ]; do
		sleep $((1 + RANDOM % 10))
		mapfile -t kinds < <(for k in process import export clients; do
			[ "$(cat "$root/finished" 2>/dev/null | grep -c "^$k")" -lt "$(grep -c "^$k" "$root/slots")" ] && echo $k
		done)
		[ ${#kinds[@]} -gt 0 ] || break
		kind=${kinds[$((RANDOM % ${#kinds[@]}))]}
		for _ in $(seq 600); do # up to about 30 s
			mapfile -t mine < <(ls "$root/pids" 2>/dev/null | grep -E "^$kind(-[0-9]+)?\$")
			[ ${#mine[@]} -gt 0 ] && break
			sleep 0.05
		done
		[ ${#mine[@]} -gt 0 ] || continue
		slot=${mine[$((RANDOM % ${#mine[@]}))]}
		p=$(cat "$root/pids/$slot" 2>/dev/null) || continue
		[ "$(readlink "/proc/$p/exe" 2>/dev/null)" = "$bin" ] || continue
		kill -9 "$p" 2>/dev/null && { n=$((n + 1)); echo "$(($(date +%s) - start))s kill -9 $slot (pid $p)" >>"$root/kills"; }
	done
) &
killer=$!

# Wait for every slot but the killer.
for p in $(jobs -p); do
	[ "$p" = "$killer" ] && continue
	wait "$p"
done
wait "$killer"
echo "soak: the concurrent part took $(($(date +%s) - start)) s"
echo "--- kills ($(wc -l <"$root/kills" 2>/dev/null || echo 0)):"
cat "$root/kills" 2>/dev/null
echo "--- exit codes (slot rc):"
sort -V "$root/done" | awk '{c[$2]++; if ($2 != 0) print "  " $0} END {for (r in c) printf "  rc %s: %d slots\n", r, c[r]}'

fail=0
check() { # check NAME OK DETAIL
	if [ "$2" = 1 ]; then echo "PASS $1: $3"; else echo "FAIL $1: $3"; fail=1; fi
}
db=$lib/library.db
q() { sqlite3 -readonly "$1" "$2"; }

# 1. originals hash to their names; every receipt's original is there.
nrec=$(q "$db" "SELECT count(*) FROM receipts")
norig=0 bad=0
while read -r f; do
	norig=$((norig + 1))
	name=$(basename "$f")
	[ "$(sha256sum <"$f" | cut -d' ' -f1)" = "${name%%.*}" ] || { bad=$((bad + 1)); echo "  $f does not hash to its name"; }
done < <(find "$lib/originals" -type f ! -name '.*')
missing=0
while read -r p; do [ -f "$lib/$p" ] || { missing=$((missing + 1)); echo "  missing $p"; }; done < <(q "$db" "SELECT stored_path FROM receipts")
check originals "$([ $bad = 0 ] && [ $missing = 0 ] && [ "$norig" = "$nrec" ] && echo 1)" \
	"$norig originals, $bad not hashing to their name, $missing receipts without their original, $nrec receipts for $nuniq different files imported"
[ "$nrec" = "$nuniq" ] || { echo "FAIL import: $nrec receipts, $nuniq different files"; fail=1; }

# 2. every receipt read exactly once.
readings=$(q "$db" "SELECT count(*) FROM history WHERE kind = 'status' AND old = 'extracting' AND new NOT LIKE 'queued%'")
once=$(q "$db" "SELECT count(*) FROM (SELECT receipt_id FROM history WHERE kind = 'status' AND old = 'extracting' AND new NOT LIKE 'queued%' GROUP BY receipt_id HAVING count(*) = 1)")
twice=$(q "$db" "SELECT group_concat(receipt_id) FROM (SELECT receipt_id FROM history WHERE kind = 'status' AND old = 'extracting' AND new NOT LIKE 'queued%' GROUP BY receipt_id HAVING count(*) > 1)")
requeued=$(q "$db" "SELECT count(*) FROM history WHERE kind = 'status' AND old = 'extracting' AND new LIKE 'queued%'")
unread=$(q "$db" "SELECT count(*) FROM receipts WHERE status IN ('new', 'queued', 'extracting', 'failed')")
statuses=$(q "$db" "SELECT group_concat(s, ', ') FROM (SELECT status || ' ' || count(*) AS s FROM receipts GROUP BY status)")
check "read once" "$([ "$once" = "$nrec" ] && [ "$readings" = "$nrec" ] && [ "$unread" = 0 ] && echo 1)" \
	"$readings readings saved for $nrec receipts, $once read exactly once${twice:+, read more than once: $twice}; $requeued readings a kill interrupted were queued again; statuses: $statuses"
last=$("$bin" process --engine ocr 2>/dev/null)
check "nothing left to read" "$(echo "$last" | grep -q '^read 0 receipts' && echo 1)" "a last process says: $last"

# 3. every client listed, no unlisted client folder.
listed=$("$bin" clients list --json --all | grep -c '"name": "Soak Client [0-9]*"')
nlisted=$("$bin" clients list --json --all | grep -o '"folder": "[^"]*"' | sort -u | wc -l)
ndirs=$(find "$lib/clients" -mindepth 1 -maxdepth 1 -type d | wc -l)
nomissing=1
for i in $(seq 1 20); do
	"$bin" list --client "Soak Client $i" >/dev/null 2>&1 || { nomissing=0; echo "  --client \"Soak Client $i\" fails"; }
done
check clients "$([ "$listed" = 20 ] && [ "$ndirs" = "$nlisted" ] && [ $nomissing = 1 ] && echo 1)" \
	"$listed of 20 listed, $ndirs client folders for $nlisted listed folders"

# 4. integrity.
bad=0 n=0
for d in "$db" "$lib"/clients/*/library.db; do
	[ -e "$d" ] || continue
	n=$((n + 1))
	r=$(sqlite3 "$d" "PRAGMA integrity_check" 2>&1)
	[ "$r" = ok ] || { bad=$((bad + 1)); echo "  $d: $r"; }
done
check integrity "$([ $bad = 0 ] && echo 1)" "$n databases, $bad not ok"

# 5. no temporary file of ours left.
left=$( (
	find "$TMPDIR" -mindepth 1 -maxdepth 1
	find "$root/out" "$lib" -name '.tmp-*' -o -name '.old-*' -o -name '*.tmp'
	find "$root/home" "$root/config" "$root/data" "$root/cache" -mindepth 1
) 2>/dev/null)
outs="$(ls "$root/out" | wc -l) files ($(ls "$root/out" | grep -c '\.csv$') CSV, $(ls "$root/out" | grep -c '\.xlsx$') workbooks)"
check "no leftovers" "$([ -z "$left" ] && echo 1)" "$(echo -n "$left" | grep -c .) temporary files; export folder holds: $outs"
[ -n "$left" ] && echo "$left" | sed 's/^/  /'

echo "soak: took $(($(date +%s) - start)) s in all"
[ $fail = 0 ] && echo "soak: all checks hold" || echo "soak: some checks FAILED (logs: SOAK_KEEP=1 keeps $root/log)"
exit $fail
