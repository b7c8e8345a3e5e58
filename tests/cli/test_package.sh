#!/usr/bin/env bash
# `dtx package scorm` as an instructor runs it, on a small stand-in site (the browser test,
# tests/e2e/scorm.mjs, packages the real one and runs it under a SCORM runtime): the zip opens
# with Debian's unzip, its manifest is well-formed XML naming every file, only the assignment's
# pack is shipped, index.html carries the package's settings, the same inputs give the same
# bytes; an assignment lint rejects, a missing site and bad arguments are refused by name.
#   tests/cli/test_package.sh path/to/dtx SOURCE_DIR
set -uo pipefail
DTX=$1
SRC=$2
source "$(dirname "$0")/lib.sh"  # tmp, fails, check, contains, json

site=$tmp/site
mkdir -p "$site/exercises/first" "$site/exercises/img" "$site/fonts"
printf '<!doctype html>\n<html><head><meta charset="utf-8"><title>dtx</title></head><body></body></html>\n' >"$site/index.html"
echo 'wasm' >"$site/dtx.wasm"; echo 'br copy' >"$site/dtx.wasm.br"; echo 'gz copy' >"$site/dtx.wasm.gz"
echo 'font' >"$site/fonts/Inter.ttf"; echo '<svg/>' >"$site/exercises/img/ring.svg"
echo '{"packs":["00-ring-allreduce.json","05-pipeline.json"]}' >"$site/exercises/index.json"
echo '{"dtx_outline":1,"packs":[{"file":"00-ring-allreduce.json","exercises":[]},{"file":"05-pipeline.json","exercises":[]}]}' >"$site/exercises/outline.json"
echo 'a stale copy' >"$site/exercises/00-ring-allreduce.json"
echo '<p>first view</p>' >"$site/exercises/first/ring.volume.html"
echo '<p>other</p>' >"$site/exercises/first/pipe.bubble-basic.html"
cat >"$tmp/hw.json" <<'J'
{"format": "dtx-assignment/1", "id": "hw-pkg", "title": "Ring <homework> & more", "due": "2030-01-01T12:00:00Z",
 "hand_in": "In the LMS.", "exercises": ["ring.volume", {"id": "ring.why-ring", "points": 2}],
 "policies": {"passing_score": 0.75}}
J

# ---- a package
check "package scorm" 0 "$DTX" package scorm "$tmp/hw.json" -o "$tmp/hw.zip" --site "$site" --packs "$SRC/exercises"
contains "says what it wrote" "$tmp/out" "^wrote .*hw.zip: SCORM 2004 4th edition, [0-9]+ files, .*2 exercises from 1 pack; launch index.html; passing score 75 %"
check "the zip opens" 0 unzip -tq "$tmp/hw.zip"
unzip -Z1 "$tmp/hw.zip" >"$tmp/list"
for f in imsmanifest.xml index.html assignment.json dtx.wasm fonts/Inter.ttf exercises/index.json exercises/outline.json \
         exercises/00-ring-allreduce.json exercises/first/ring.volume.html exercises/img/ring.svg; do
  contains "ships $f" "$tmp/list" "^${f//./\\.}$"
done
if grep -qE '\.(br|gz)$|05-pipeline|pipe\.bubble' "$tmp/list"; then
  echo "FAIL: ships precompressed copies or a pack the assignment does not use:"; sed 's/^/    /' "$tmp/list"; fails=$((fails + 1))
fi
mkdir -p "$tmp/x" && unzip -q "$tmp/hw.zip" -d "$tmp/x"
cmp -s "$tmp/x/exercises/00-ring-allreduce.json" "$SRC/exercises/00-ring-allreduce.json" ||
  { echo "FAIL: the shipped pack is not the course's checked text"; fails=$((fails + 1)); }
contains "index.json lists the one pack" <(json 'd.packs.join(",")' <"$tmp/x/exercises/index.json"; echo) "^00-ring-allreduce.json$"
contains "the outline keeps the one pack" <(json 'd.packs.map((p) => p.file).join(",")' <"$tmp/x/exercises/outline.json"; echo) "^00-ring-allreduce.json$"
contains "index.html is in LMS mode" "$tmp/x/index.html" '<head>$'
contains "index.html names the assignment" "$tmp/x/index.html" '^<meta name="dtx-assign" content="assignment.json">'
contains "index.html names the runtime" "$tmp/x/index.html" '^<meta name="dtx-lms" content="scorm2004">'
check "the manifest is well-formed XML" 0 xmllint --noout "$tmp/x/imsmanifest.xml"
contains "the title escaped" "$tmp/x/imsmanifest.xml" "<title>Ring &lt;homework&gt; &amp; more</title>"
contains "the passing score" "$tmp/x/imsmanifest.xml" "<imsss:minNormalizedMeasure>0.75</imsss:minNormalizedMeasure>"
n_files=$(xmllint --xpath "count(//*[local-name()='file'])" "$tmp/x/imsmanifest.xml")
n_zip=$(($(wc -l <"$tmp/list") - 1))
[[ $n_files == "$n_zip" ]] || { echo "FAIL: the manifest lists $n_files files, the zip has $n_zip besides it"; fails=$((fails + 1)); }
check "package again" 0 "$DTX" package scorm "$tmp/hw.json" -o "$tmp/hw2.zip" --site "$site" --packs "$SRC/exercises"
cmp -s "$tmp/hw.zip" "$tmp/hw2.zip" || { echo "FAIL: the same inputs gave different zips"; fails=$((fails + 1)); }

# ---- refused, by name
sed 's/"ring.volume"/"ring.no-such"/' "$tmp/hw.json" >"$tmp/bad.json"
check "an assignment lint rejects" 1 "$DTX" package scorm "$tmp/bad.json" -o "$tmp/bad.zip" --site "$site" --packs "$SRC/exercises"
contains "its error, placed" "$tmp/err" "bad.json:2:.*error\[E071\]: /exercises/0: no exercise \"ring.no-such\""
contains "nothing packaged" "$tmp/err" "the assignment has errors; nothing packaged"
[[ ! -e "$tmp/bad.zip" ]] || { echo "FAIL: a zip was written for a rejected assignment"; fails=$((fails + 1)); }
check "no site" 1 "$DTX" package scorm "$tmp/hw.json" -o "$tmp/none.zip" --site "$tmp/nowhere" --packs "$SRC/exercises"
contains "names the missing page" "$tmp/err" "nowhere/index.html: error\[E001\]: cannot read this file \(build the site with \`make dist\`"
check "no -o" 2 "$DTX" package scorm "$tmp/hw.json"
check "another kind" 2 "$DTX" package xapi "$tmp/hw.json" -o "$tmp/a.zip"
check "an unknown option" 2 "$DTX" package scorm "$tmp/hw.json" -o "$tmp/a.zip" --zip
contains "names the option" "$tmp/err" "unknown option --zip"
check "help" 0 "$DTX" package --help
contains "help names the command" "$tmp/out" "^usage: dtx package scorm ASSIGNMENT -o FILE.zip"

echo "package: $fails failure(s)"
exit $((fails > 0))
