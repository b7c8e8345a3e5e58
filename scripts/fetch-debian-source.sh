#!/usr/bin/env bash
# Downloads a Debian SOURCE package and unpacks its upstream tarball, changing no system file.
#
#   scripts/fetch-debian-source.sh PKG DESTDIR      e.g.  imgui build/deps/imgui
#
# apt-get runs with a private configuration inside the build tree (a deb-src copy of the
# system's Debian sources, its own lists and cache, no locking), so it works as root or not and
# never touches /etc/apt or /var/lib/apt. The upstream .orig.tar.* is unpacked into DESTDIR with
# its top-level folder stripped (DESTDIR/imgui.h for imgui, DESTDIR/src/md4c.c for md4c); the
# Debian tarball and patches are not used. Idempotent: nothing happens once DESTDIR/.fetched
# exists. DTX_DEPS_DIR (default: build/deps in the repository) holds the private apt state.
set -euo pipefail

die() { echo "fetch-debian-source: $*" >&2; exit 1; }

[[ $# -eq 2 && -n "$1" && -n "$2" ]] || { echo "usage: scripts/fetch-debian-source.sh PKG DESTDIR" >&2; exit 2; }
pkg_spec=$1          # a source package name, optionally NAME=VERSION
pkg=${pkg_spec%%=*}
dest=$2

[[ -f "$dest/.fetched" ]] && exit 0

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps_dir=${DTX_DEPS_DIR:-$repo_root/build/deps}
D=$deps_dir/apt
mkdir -p "$D/etc" "$D/lists/partial" "$D/cache/archives/partial" "$D/log" "$D/download/$pkg"
D=$(cd "$D" && pwd)
log=$D/log/$pkg.log

# One fetch at a time per private apt dir (parallel configures share it).
exec 9>"$D/lock"
flock 9
[[ -f "$dest/.fetched" ]] && exit 0
: >"$log"

# deb-src entries made from the system's Debian entries, in a file of our own.
src_new=$D/src-entries.new
if [[ -r /etc/apt/sources.list.d/debian.sources ]]; then
  sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >"$src_new"
  src_name=src.sources
elif [[ -r /etc/apt/sources.list ]]; then
  sed -n 's/^[[:space:]]*deb\(-src\)\{0,1\}[[:space:]]/deb-src /p' /etc/apt/sources.list | awk '!seen[$0]++' >"$src_new"
  src_name=src.list
else
  die "no Debian sources found (neither /etc/apt/sources.list.d/debian.sources nor /etc/apt/sources.list)"
fi
[[ -s "$src_new" ]] || die "no Debian entries to turn into deb-src in the system's apt sources"
sources_changed=1
if cmp -s "$src_new" "$D/etc/$src_name" 2>/dev/null; then
  sources_changed=0
fi
rm -f "$D"/etc/src.sources "$D"/etc/src.list
mv "$src_new" "$D/etc/$src_name"

apt_opts=(
  -o Dir::Etc::SourceList=/dev/null
  -o Dir::Etc::SourceParts="$D/etc"
  -o Dir::State::Lists="$D/lists"
  -o Dir::Cache="$D/cache"
  -o Debug::NoLocking=1
)
# As root apt downloads as user _apt, which may not be able to enter the build tree; the
# fallback works but warns. Download as root directly instead.
[[ $EUID -eq 0 ]] && apt_opts+=(-o APT::Sandbox::User=root)

show_errors() { grep -E '^(E|W|Err):|^  ' "$log" | awk '!seen[$0]++' | tail -n 12 >&2 || true; }

have_lists() { compgen -G "$D/lists/*_Sources*" >/dev/null; }

private_update() {
  # apt-get update exits 0 when an index could not be fetched, so judge by the lists too.
  if ! apt-get "${apt_opts[@]}" update >>"$log" 2>&1 || ! have_lists; then
    show_errors
    die "could not get the Debian source indexes (deb-src) needed for '$pkg': check network
access to the Debian mirror named in $D/etc/$src_name; full log: $log"
  fi
}

updated=0
if (( sources_changed )) || ! have_lists; then
  private_update
  updated=1
fi

dl=$D/download/$pkg
# Only this run's files are in $dl, so a binary package name (apt picks its source) or a newer
# version never leaves two candidates. A component tarball is .orig-NAME.tar.*, not matched.
find_orig() { compgen -G "$dl/*.orig.tar.*" | grep -v '\.asc$' | head -n 1 || true; }

download() {
  rm -f "$dl"/*
  # The Debian tarball may be missing from the mirror, which fails apt-get source: judge by the
  # upstream tarball alone (apt checked the hash of each file it completed).
  (cd "$dl" && apt-get "${apt_opts[@]}" source --download-only "$pkg_spec") >>"$log" 2>&1 || true
}

download
orig=$(find_orig)
if [[ -z "$orig" ]] && (( ! updated )) && ! grep -q "Unable to find a source package" "$log"; then
  # The lists may be stale (files replaced on the mirror): refresh once and retry.
  private_update
  download
  orig=$(find_orig)
fi
if [[ -z "$orig" ]]; then
  show_errors
  if grep -q "Unable to find a source package" "$log"; then
    die "Debian has no source package '$pkg' in the suites listed in $D/etc/$src_name
(check the name and suite: 'apt-cache showsrc $pkg' needs deb-src entries); full log: $log"
  fi
  die "could not download the upstream tarball (*.orig.tar.*) of Debian source package '$pkg':
check network access to the Debian mirror in $D/etc/$src_name; full log: $log"
fi

# Unpack beside DESTDIR, then move into place, so an interrupted run leaves no half tree.
dest_parent=$(dirname "$dest")
mkdir -p "$dest_parent"
if [[ -e "$dest" ]]; then
  if [[ -d "$dest" ]] && [[ -z "$(ls -A "$dest")" ]]; then
    rmdir "$dest"
  else
    die "$dest exists but has no .fetched marker: remove it and run again"
  fi
fi
tmp=$(mktemp -d "$dest_parent/.fetch-$pkg.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
mkdir "$tmp/x"
tar -xf "$orig" -C "$tmp/x" --no-same-owner
# Strip the single top-level folder (imgui-1.86/, md4c-release-0.4.8/, ...) when there is one.
tree=$tmp/x
shopt -s dotglob nullglob
top=("$tree"/*)
if [[ ${#top[@]} -eq 1 && -d "${top[0]}" ]]; then
  tree=${top[0]}
fi
shopt -u dotglob nullglob
printf '%s\n' "$(basename "$orig")" >"$tree/.fetched"
chmod 755 "$tree"
mv "$tree" "$dest"
rm -rf "$tmp"
trap - EXIT
echo "fetch-debian-source: $(basename "$orig") -> $dest"
