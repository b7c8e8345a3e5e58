# Shared by the tests/cli scripts: a scratch dir, a failure count, two checks and a JSON
# reader. Source it after setting DTX; end the script with the `fails` summary.
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() {  # check "description" expected_exit command...
  local what=$1 want=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [[ $got -ne $want ]]; then
    echo "FAIL: $what: exit $got, expected $want"
    sed 's/^/    /' "$tmp/out" "$tmp/err" | head -20
    fails=$((fails + 1))
  fi
}

contains() {  # contains "description" file pattern
  if ! grep -qE -- "$3" "$2"; then
    echo "FAIL: $1: no line matching /$3/ in:"
    sed 's/^/    /' "$2" | head -30
    fails=$((fails + 1))
  fi
}

json() {  # json 'js expression over d' < file
  node -e "let s='';process.stdin.on('data',c=>s+=c).on('end',()=>{const d=JSON.parse(s);const r=($1);process.stdout.write(typeof r==='string'?r:JSON.stringify(r))})"
}
