#!/usr/bin/env bash
# The dtx command as instructors and scripts use it: help, exit codes, output formats, and
# for every shipped exercise, `show --answer --json` fed back into `grade` is graded correct.
#   tests/cli/test_cli.sh path/to/dtx repo_root
set -uo pipefail
DTX=$1
ROOT=$2
source "$(dirname "$0")/lib.sh"  # tmp, fails, check, contains, json (before the cd: $0 may be relative)
cd "$ROOT"

# ---- help and usage
check "dtx --help" 0 "$DTX" --help
contains "main help lists commands" "$tmp/out" "lint PATH"
contains "main help lists new" "$tmp/out" "new KIND ID"
for c in lint list show grade new codes; do
  check "dtx $c --help" 0 "$DTX" "$c" --help
  contains "$c help has usage" "$tmp/out" "^usage: dtx $c"
done
check "no command" 2 "$DTX"
check "unknown command" 2 "$DTX" frobnicate
check "lint without paths" 2 "$DTX" lint
check "unknown option" 2 "$DTX" list --frob
check "bad seed" 2 "$DTX" show ring.volume --seed -4
check "unknown exercise" 2 "$DTX" show no.such.exercise

# ---- lint
check "lint shipped packs" 0 "$DTX" lint exercises/
contains "lint summary" "$tmp/err" "0 errors"
check "lint a malformed pack" 1 "$DTX" lint tests/malformed/numeric-tolerence-typo.json
contains "lint error format" "$tmp/out" "^tests/malformed/numeric-tolerence-typo.json:[0-9]+:[0-9]+: error\[E012\]: /exercises/0/parts/0/tolerence: unknown field"
check "lint --json" 1 "$DTX" lint --json tests/malformed/numeric-tolerence-typo.json
[[ $(json 'd[0].pointer' <"$tmp/out") == "/exercises/0/parts/0/tolerence" ]] || { echo "FAIL: lint --json pointer"; fails=$((fails + 1)); }
[[ $(json 'd[0].code' <"$tmp/out") == "E012" ]] || { echo "FAIL: lint --json code"; fails=$((fails + 1)); }
check "lint a missing path" 1 "$DTX" lint no/such/dir
contains "a missing path has its code" "$tmp/out" "^no/such/dir: error\[E001\]: no such file or folder"
# ---- exercise references (#/ex/ID in a text): a chapter linted alone finds its neighbours;
# a pack elsewhere needs --course for the course's exercises, and a wrong id is an error
check "lint one chapter that refers to another" 0 "$DTX" lint --no-run exercises/10-collectives.json
mkdir -p "$tmp/refs"
cat >"$tmp/refs/refs.json" <<'JSON'
{"format": 1, "chapter": 40, "id": "refs", "title": "Refs", "exercises": [
 {"id": "refs.a", "type": "choice", "title": "A", "prompt": "As in [the ring](#/ex/ring.volume), not [this](#/ex/no.such).",
  "options": [{"text": "x", "correct": true}, {"text": "y"}]}]}
JSON
check "lint references outside the course" 1 "$DTX" lint --no-run "$tmp/refs/refs.json"
check "lint references with --course" 1 "$DTX" lint --no-run "$tmp/refs/refs.json" --course exercises
contains "lint --course: only the wrong reference" "$tmp/out" "refs.json:2:109: error\[E071\]: /exercises/0/prompt: link to #/ex/no.such names the exercise 'no.such'"
[[ $(grep -c "E071" "$tmp/out") == 1 ]] || { echo "FAIL: lint --course: one E071"; fails=$((fails + 1)); }

# ---- lint --course: a new pack checked against the course it will join
"$DTX" new numeric ring.volume -o "$tmp/join.json" >/dev/null
check "lint without --course: ids are not compared with the course" 0 "$DTX" lint --no-run "$tmp/join.json"
check "lint --course: an id the course has" 1 "$DTX" lint --no-run "$tmp/join.json" --course exercises
# The exercise's id (the pack's own id is "ring-volume"): line and column of its value.
pos=$(awk 'index($0, "\"id\": \"ring.volume\"") { print NR ":" index($0, "\"ring.volume\""); exit }' "$tmp/join.json")
contains "lint --course: the id's place and the course file that has it" "$tmp/out" \
  "^$tmp/join.json:$pos: error\[E016\]: /exercises/0/id: duplicate exercise id \"ring.volume\": already used in exercises/00-ring-allreduce.json$"
check "lint --course --json" 1 "$DTX" lint --no-run --json "$tmp/join.json" --course exercises
[[ $(json 'd.map(x => x.code + " " + x.pointer).join(";")' <"$tmp/out") == "E016 /exercises/0/id" ]] ||
  { echo "FAIL: lint --course --json"; fails=$((fails + 1)); }
"$DTX" new numeric draft.fresh -o "$tmp/fresh.json" >/dev/null
check "lint --course: new ids pass" 0 "$DTX" lint --no-run "$tmp/fresh.json" --course exercises
check "lint --course: a chapter of the course is checked against the others" 0 "$DTX" lint --no-run exercises/00-ring-allreduce.json --course exercises/
cp exercises/05-pipeline.json "$tmp/pipeline-copy.json"
check "lint --course: a copy of a chapter clashes with it" 1 "$DTX" lint --no-run "$tmp/pipeline-copy.json" --course exercises
[[ $(grep -c "error\[E016\].*already used in exercises/05-pipeline.json" "$tmp/out") == $(json 'd.exercises.length' <exercises/05-pipeline.json) ]] ||
  { echo "FAIL: lint --course reports every id of the copy"; sed 's/^/    /' "$tmp/out" | head; fails=$((fails + 1)); }
check "lint --course: a missing folder" 2 "$DTX" lint --no-run "$tmp/fresh.json" --course no/such/dir
contains "lint --course: the folder named" "$tmp/err" "--course no/such/dir: no such file or folder"
check "lint --help documents --course" 0 "$DTX" lint --help
contains "lint --help: --course" "$tmp/out" "^--course DIR checks PATH"

# ---- codes: what a lint code means
check "codes lists every code" 0 "$DTX" codes
contains "codes: an error" "$tmp/out" "^E012  unknown-field +error"
contains "codes: a warning" "$tmp/out" "^W002  no-hints +warning"
check "codes by id" 0 "$DTX" codes e012
contains "codes by id explains" "$tmp/out" "^E012 unknown-field \(error\)"
check "codes by name" 0 "$DTX" codes no-hints
contains "codes by name explains" "$tmp/out" "^W002 no-hints \(warning\)"
check "codes: no such code" 1 "$DTX" codes E999
contains "codes: no such code says so" "$tmp/err" "no code \"E999\""
check "codes --json" 0 "$DTX" codes --json
[[ $(json 'd.find(c => c.code == "E012").name' <"$tmp/out") == "unknown-field" ]] || { echo "FAIL: codes --json"; fails=$((fails + 1)); }
# a broken pack next to good ones: the others still load and are linted
mkdir -p "$tmp/mixed"
cp exercises/00-ring-allreduce.json tests/malformed/json-trailing-comma.json "$tmp/mixed/"
check "lint a folder with one broken pack" 1 "$DTX" lint "$tmp/mixed"
contains "broken pack reported" "$tmp/out" "json-trailing-comma.json:7:1: error"
contains "good pack still loaded" "$tmp/err" "[1-9][0-9]* exercises loaded"

# code exercises: lint runs the reference and the listed wrong implementations with node
cat >"$tmp/code.json" <<'JSON'
{"format": 1, "chapter": 0, "id": "c", "title": "C", "exercises": [
 {"id": "c.bad-ref", "type": "code", "title": "T", "prompt": "p", "function": "f", "args": ["x"],
  "expected": "2*x", "reference": "function f(x) { return 3 * x; }", "cases": [{"args": [1]}],
  "wrong": [{"note": "same as the answer", "code": "function f(x) { return x + x; }"}]}]}
JSON
check "lint runs code" 1 "$DTX" lint "$tmp/code.json"
contains "reference failing its cases" "$tmp/out" "/exercises/0/reference: the reference solution fails its own cases"
contains "wrong implementation passing" "$tmp/out" "/exercises/0/wrong/0: this wrong implementation \\(same as the answer\\) passes every case"
check "lint --no-run skips code" 0 "$DTX" lint --no-run "$tmp/code.json"

# lint explains: near misses get a suggestion
check "lint a typo'd field" 1 "$DTX" lint tests/malformed/mistake-field-typo.json
contains "typo'd field: did you mean" "$tmp/out" 'unknown field "mesage" \(did you mean "message"\?\)'
cat >"$tmp/undeclared.json" <<'JSON'
{"format": 1, "chapter": 0, "id": "u", "title": "U", "exercises": [
 {"id": "u.volume", "type": "numeric", "title": "T", "prompt": "{N} GPUs each hold {M} GB.",
  "params": {"N": {"default": 8, "choices": [4, 8]}, "M": {"default": 1, "min": 0.5, "max": 8}},
  "parts": [{"id": "v", "answer": "2*M*(n-1)/N", "unit": "GB"}]}]}
JSON
check "lint an undeclared parameter" 1 "$DTX" lint "$tmp/undeclared.json"
contains "undeclared parameter: declared names" "$tmp/out" "parameter 'n' is used in the answer but not declared \(did you mean 'N'\?\); declared: N, M"

# ---- lint --warn: style warnings, printed as warnings, exit status unchanged
cat >"$tmp/bare.json" <<'JSON'
{"format": 1, "chapter": 0, "id": "w", "title": "W", "exercises": [
 {"id": "w.bare", "type": "numeric", "title": "T", "prompt": "How much does one of 8 GPUs send?",
  "parts": [{"id": "v", "answer": "2*7/8", "unit": "GB"}]}]}
JSON
check "lint without --warn: clean" 0 "$DTX" lint "$tmp/bare.json"
if grep -q "warning" "$tmp/out"; then echo "FAIL: warnings printed without --warn"; fails=$((fails + 1)); fi
check "lint --warn keeps exit 0" 0 "$DTX" lint --warn "$tmp/bare.json"
contains "--warn: no hints" "$tmp/out" "^$tmp/bare.json:[0-9]+:[0-9]+: warning\[W002\]: /exercises/0: no hints"
contains "--warn: no explanation" "$tmp/out" "warning\[W001\]: /exercises/0: no explanation"
contains "--warn: no known mistakes" "$tmp/out" "warning\[W004\]: /exercises/0/parts/0: no known mistakes"
contains "--warn summary" "$tmp/err" "0 errors, 3 warnings"
check "lint --warn --json" 0 "$DTX" lint --warn --json "$tmp/bare.json"
[[ $(json 'd.map(x => x.severity).join(",")' <"$tmp/out") == "warning,warning,warning" ]] ||
  { echo "FAIL: lint --warn --json severities"; fails=$((fails + 1)); }
check "lint --warn with an error still exits 1" 1 "$DTX" lint --warn "$tmp/undeclared.json"

# ---- new: every kind is a pack that lints clean, with no warning, and shows and grades
# (the kinds are the registered exercise types, as `dtx types` lists them)
kinds=$("$DTX" types | awk '{print $1}')
[ "$(echo "$kinds" | wc -l)" -ge 6 ] || { echo "FAIL: dtx types lists $(echo "$kinds" | wc -l) types"; fails=$((fails + 1)); }
for kind in $kinds; do
  check "new $kind prints" 0 "$DTX" new "$kind" "draft.my-$kind"
  cp "$tmp/out" "$tmp/printed.json"
  check "new $kind -o" 0 "$DTX" new "$kind" "draft.my-$kind" -o "$tmp/new-$kind.json"
  contains "new $kind says what it wrote" "$tmp/out" "wrote $tmp/new-$kind.json"
  contains "new $kind names the next command" "$tmp/out" "dtx show draft.my-$kind --packs $tmp/new-$kind.json --answer"
  cmp -s "$tmp/printed.json" "$tmp/new-$kind.json" || { echo "FAIL: new $kind: printed and written packs differ"; fails=$((fails + 1)); }
  contains "new $kind explains its fields" "$tmp/new-$kind.json" '"\$comment"'
  check "new $kind lints clean" 0 "$DTX" lint "$tmp/new-$kind.json"
  check "new $kind lint --warn" 0 "$DTX" lint --warn "$tmp/new-$kind.json"
  if grep -q "warning" "$tmp/out"; then echo "FAIL: new $kind has warnings:"; sed 's/^/    /' "$tmp/out"; fails=$((fails + 1)); fi
  contains "new $kind: 1 exercise, nothing to report" "$tmp/err" "1 exercises loaded, 0 errors, 0 warnings$"
  check "new $kind shows" 0 "$DTX" show "draft.my-$kind" --packs "$tmp/new-$kind.json" --answer
done
check "new --chapter --title" 0 "$DTX" new numeric draft.titled --chapter 20 --title "My own title"
[[ $(json 'd.chapter + "|" + d.exercises[0].title' <"$tmp/out") == "20|My own title" ]] ||
  { echo "FAIL: new --chapter/--title not applied"; fails=$((fails + 1)); }
check "new refuses to overwrite" 1 "$DTX" new choice draft.other -o "$tmp/new-numeric.json"
contains "new names the existing file" "$tmp/err" "$tmp/new-numeric.json already exists"
grep -q '"type": "numeric"' "$tmp/new-numeric.json" || { echo "FAIL: new overwrote a file"; fails=$((fails + 1)); }
check "new unknown kind" 2 "$DTX" new numerc draft.x
contains "new unknown kind suggests" "$tmp/err" "unknown kind 'numerc' \(did you mean 'numeric'\?\); expected one of: numeric, choice, ordering, buggy-line, code"
check "new invalid id" 2 "$DTX" new numeric Ring_Volume
contains "new invalid id explains" "$tmp/err" "invalid ID 'Ring_Volume': expected an id of lower-case letters.*did you mean \"ring-volume\""
check "new without an id" 2 "$DTX" new numeric
check "new bad chapter" 2 "$DTX" new numeric draft.x --chapter lots

# ---- list
check "list" 0 "$DTX" list
contains "list shows chapter 0" "$tmp/out" "^Chapter 0: "
check "list --json" 0 "$DTX" list --json
"$DTX" list --json >"$tmp/list.json"
n=$(json 'd.length' <"$tmp/list.json")
[[ $n -ge 8 ]] || { echo "FAIL: list --json has $n exercises"; fails=$((fails + 1)); }
[[ $(json 'Object.keys(d[0]).join(",")' <"$tmp/list.json") == "id,pack,chapter,type,title,difficulty,parameters" ]] ||
  { echo "FAIL: list --json fields"; fails=$((fails + 1)); }

# ---- show hides the answer unless asked
check "show" 0 "$DTX" show ring.volume
if grep -q "Explanation" "$tmp/out"; then echo "FAIL: show reveals the explanation"; fails=$((fails + 1)); fi
check "show --json has no values" 0 "$DTX" show ring.volume --json
[[ $(json 'd.parts.every(p => p.value === undefined)' <"$tmp/out") == "true" ]] || { echo "FAIL: show --json leaks answers"; fails=$((fails + 1)); }
check "show --json: the widget and when a student sees it" 0 "$DTX" show ring.widget-phases --json
[[ $(json '[d.widget.kind, d.widget.reveal, d.widget.inputs.N, d.widget.inputs.algorithm].join(" ")' <"$tmp/out") == "ring after-attempt 8 ring" ]] ||
  { echo "FAIL: show --json widget: $(json 'd.widget' <"$tmp/out")"; fails=$((fails + 1)); }
check "show: the widget" 0 "$DTX" show ring.widget-phases
contains "show: the widget's line" "$tmp/out" "^Widget: Ring AllReduce \(N = 8, .*\), shown after the student's first attempt\.$"
check "show --json: no widget, no member" 0 "$DTX" show ring.volume --json
[[ $(json 'd.widget === undefined' <"$tmp/out") == "true" ]] || { echo "FAIL: show --json widget on ring.volume"; fails=$((fails + 1)); }
check "show --seed is deterministic" 0 "$DTX" show ring.volume --seed 5 --json
cp "$tmp/out" "$tmp/a"
"$DTX" show ring.volume --seed 5 --json >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { echo "FAIL: same seed, different instance"; fails=$((fails + 1)); }

# ---- grade: every exercise, the default seed and one drawn one when it has parameters, answered from show --answer
node "$(dirname "$0")/grade_own_answers.mjs" "$DTX" "$ROOT/exercises" >"$tmp/own.txt" 2>&1 || fails=$((fails + 1))
grep -E "^FAIL|^    |^graded" "$tmp/own.txt"

# ---- grade: verdicts and exit codes for each kind of input
read -r v1 v2 < <("$DTX" show ring.volume --answer --json | json 'd.parts.map(p => p.value).join(" ")')
check "numeric right" 0 "$DTX" grade ring.volume "$v1" "$v2"
read -r id1 id2 < <("$DTX" show ring.volume --json | json 'd.parts.map(p => p.id).join(" ")')
check "numeric named parts" 0 "$DTX" grade ring.volume "$id2=$v2" "$id1=$v1"
check "numeric wrong" 1 "$DTX" grade ring.volume "$v1" 999
check "numeric unreadable" 3 "$DTX" grade ring.volume "$v1" "lots"
contains "format error says it is not an attempt" "$tmp/out" "not counted as attempts"
check "numeric wrong kind of unit" 3 "$DTX" grade ring.volume "$v1" "3 ms"
check "numeric --json" 1 "$DTX" grade ring.volume --json "$v1" 999
[[ $(json 'd.verdict + " " + d.counts_as_attempt' <"$tmp/out") == "partial true" ]] || { echo "FAIL: grade --json verdict"; fails=$((fails + 1)); }
check "choice unknown letter" 3 "$DTX" grade ring.why-ring Z
check "buggy-line not a number" 3 "$DTX" grade ring.buggy-double-count x
printf 'function ringAllReduceTime(M_gb, N, bw_gbs, latency_us) {\n  return 0;\n}\n' >"$tmp/zero.js"
check "code wrong" 1 "$DTX" grade ring.code-time "$tmp/zero.js"
contains "code per-case results" "$tmp/out" "FAIL"
printf 'function ringAllReduceTime(M_gb, N, bw_gbs, latency_us) {\n  return M_gb +* 2;\n}\n' >"$tmp/syntax.js"
check "code syntax error" 3 "$DTX" grade ring.code-time "$tmp/syntax.js"
contains "code syntax error line" "$tmp/out" "Syntax error \(line 2\)"

# ---- hostile input: deep nesting and huge files are errors with a place, never a crash
# (these used to end in a segfault, exit 139). Inputs are generated, not committed.
parens=$(printf '%*s' 10000 '' | tr ' ' '(')1$(printf '%*s' 10000 '' | tr ' ' ')')
check "grade: 10,000 nested parentheses" 3 "$DTX" grade ring.volume "$parens" "$v2"
contains "grade: long answer refused" "$tmp/out" "20,001 characters long; answers are limited to 200 characters"
nest70=$(printf '%*s' 70 '' | tr ' ' '(')1$(printf '%*s' 70 '' | tr ' ' ')')
check "grade: 70 nested parentheses" 3 "$DTX" grade ring.volume "$nest70" "$v2"
contains "grade: nesting named" "$tmp/out" "nested deeper than 64 levels"
hostile_pack() {  # hostile_pack FILE ANSWER
  printf '{"format": 1, "chapter": 0, "id": "h", "title": "H", "exercises": [\n {"id": "h.x", "type": "numeric", "title": "T", "prompt": "p",\n  "parts": [{"id": "a", "answer": "%s", "unit": "GB"}]}]}\n' "$2" >"$1"
}
# The answer's opening quote is at column 35 of line 3: errors inside it are at 35 + their column.
hostile_pack "$tmp/parens.json" "$parens"
check "lint: 10,000 nested parentheses" 1 "$DTX" lint --no-run "$tmp/parens.json"
contains "lint: long expression placed" "$tmp/out" "parens.json:3:1036: error\[E030\]: /exercises/0/parts/0/answer: invalid expression at column 1001: the expression is longer than 1000 characters"
check "grade from a pack with 10,000 nested parentheses" 2 "$DTX" grade h.x --packs "$tmp/parens.json" 1
contains "grade: the pack's error is shown" "$tmp/err" "parens.json:3:1036: error"
hostile_pack "$tmp/nest70.json" "$nest70"
check "lint: 70 nested parentheses" 1 "$DTX" lint --no-run "$tmp/nest70.json"
contains "lint: nesting placed" "$tmp/out" "nest70.json:3:100: error\[E030\]: /exercises/0/parts/0/answer: invalid expression at column 65: nested deeper than 64 levels"
{ printf '{"format": 1, "chapter": 0, "id": "h", "title": "H",\n"exercises": '
  printf '%*s' 30000 '' | tr ' ' '['; printf '%*s' 30000 '' | tr ' ' ']'; printf '}\n'; } >"$tmp/deep.json"
check "lint: JSON nested 30,000 deep" 1 "$DTX" lint --no-run "$tmp/deep.json"
contains "lint: JSON depth placed" "$tmp/out" "deep.json:2:269: error\[E004\]: nested deeper than 256 levels of arrays and objects"
{ printf '{"format": 1, "chapter": 0, "id": "h", "title": "H", "exercises": []'
  head -c 11000000 /dev/zero | tr '\0' ' '; printf '}\n'; } >"$tmp/huge.json"
check "lint: an 11 MB pack" 1 "$DTX" lint --no-run "$tmp/huge.json"
contains "lint: size limit named" "$tmp/out" "huge.json:1:1: error\[E002\]: the file is larger than 10 MB \(10,485,760 bytes\), the most a pack may be"

# ---- outline --first-views: what a link to an exercise shows before the page's engine runs
mkdir -p "$tmp/fv"
cat >"$tmp/fv/index.json" <<'JSON'
{"packs": ["p.json"]}
JSON
cat >"$tmp/fv/p.json" <<'JSON'
{"format": 1, "chapter": 3, "id": "p", "title": "P", "exercises": [
 {"id": "p.one", "type": "choice", "title": "A <b>title</b>",
  "prompt": "Raw <script>alert(1)</script> and <img src=x onerror=alert(2)>, a [bad link](javascript:alert(3)), a [good one](https://example.com/a?b=1&c=2), ![a ring](img/ring.svg) and $10^{9}$ bytes.",
  "options": [{"text": "**Bold** <i>x</i>", "correct": true}, {"text": "$M/N$", "correct": false}]}]}
JSON
check "outline --first-views" 0 "$DTX" outline "$tmp/fv" -o "$tmp/fv/outline.json" --first-views "$tmp/fv/views.json"
json 'JSON.stringify(d.exercises["p.one"])' <"$tmp/fv/views.json" >"$tmp/fv/one.json"
contains "first view: raw HTML is text" "$tmp/fv/one.json" 'Raw &lt;script&gt;alert\(1\)&lt;/script&gt; and &lt;img src=x onerror=alert\(2\)&gt;'
contains "first view: a javascript: link keeps its words only" "$tmp/fv/one.json" ', a bad link, a <a '
contains "first view: another site opens beside it" "$tmp/fv/one.json" '<a href=\\"https://example.com/a\?b=1&amp;c=2\\" target=\\"_blank\\" rel=\\"noopener noreferrer\\">good one</a>'
contains "first view: a picture next to its pack" "$tmp/fv/one.json" '<img src=\\"exercises/img/ring.svg\\" alt=\\"a ring\\">'
contains "first view: maths as plain text" "$tmp/fv/one.json" '10⁹ bytes'
contains "first view: an option as inline HTML" "$tmp/fv/one.json" '"html":"<strong>Bold</strong> &lt;i&gt;x&lt;/i&gt;"'
contains "first view: the title as written (escaped by the page's script)" "$tmp/fv/one.json" '"title":"A <b>title</b>"'
if grep -q '"correct"' "$tmp/fv/one.json"; then echo "FAIL: first view: it tells which option is right"; fails=$((fails + 1)); fi

# ---- a TA's view: dtx show/grade --assignment FILE --student ID gives that student's numbers
hw=tests/course/assignment.json
check "show a student's instance" 0 "$DTX" show ring.volume --assignment "$hw" --student Ana@Uni.example --answer --json
cp "$tmp/out" "$tmp/ana.json"
ana_seed=$(json 'd.seed' <"$tmp/ana.json")
check "the same student, another case" 0 "$DTX" show ring.volume --assignment "$hw" --student ana@uni.example --json
[[ $(json 'd.seed' <"$tmp/out") == "$ana_seed" ]] || { echo "FAIL: an identifier's case changes the seed"; fails=$((fails + 1)); }
check "another student" 0 "$DTX" show ring.volume --assignment "$hw" --student bo@uni.example --json
[[ $(json 'd.seed' <"$tmp/out") != "$ana_seed" ]] || { echo "FAIL: two students have one seed"; fails=$((fails + 1)); }
check "show --seed of that seed is the same instance" 0 "$DTX" show ring.volume --seed "$ana_seed" --answer --json
cmp -s "$tmp/out" "$tmp/ana.json" || { echo "FAIL: --student's instance differs from --seed $ana_seed's"; fails=$((fails + 1)); }
mapfile -t words < <(json 'd.grade_words.join("\n")' <"$tmp/ana.json"; echo)
check "grade a student's answer on their numbers" 0 "$DTX" grade ring.volume --assignment "$hw" --student ana@uni.example "${words[@]}"
contains "it is right on theirs" "$tmp/out" "correct"
check "a student not an identifier" 2 "$DTX" show ring.volume --assignment "$hw" --student "ana;x"
contains "names the character" "$tmp/err" "--student: character 4 is ';'"
check "an exercise not in the assignment" 2 "$DTX" show pipe.bubble-basic --assignment "$hw" --student ana
contains "says so" "$tmp/err" "pipe.bubble-basic is not an exercise of tests/course/assignment.json"
check "--student alone" 2 "$DTX" show ring.volume --student ana

if [[ $fails -gt 0 ]]; then
  echo "$fails CLI check(s) failed"
  exit 1
fi
echo "all CLI checks passed"
