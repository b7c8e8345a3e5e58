#!/usr/bin/env bash
# Draws the installed app's icons from web/shell/favicon.svg, so no PNG is kept in the repository:
#
#   scripts/build-icons.sh OUTDIR
#
# writes OUTDIR/icons/icon-192.png and icon-512.png (the SVG as it is, edge to edge) and
# icon-maskable-512.png: the SVG at 80% of the side, centred on a square filled with the icon's
# own blue. A platform that masks icons (Android's circles, squircles, rounded squares) may cut
# away everything outside the middle circle of 80% diameter, the "safe zone"; the filled margin
# is what it cuts, and the tile's rounded corners disappear into a square of the same colour.
# web/shell/manifest.webmanifest names these files.
#
# Needs rsvg-convert (Debian's librsvg2-bin; scripts/deps.sh browser installs it). Draws only
# when the SVG (or this script) is newer than a PNG, or a PNG is missing: prints nothing then.
set -euo pipefail
out=${1:?usage: scripts/build-icons.sh OUTDIR}
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
svg="$repo_root/web/shell/favicon.svg"
self="$repo_root/scripts/build-icons.sh"
# The fill of the favicon's rounded square: the maskable icon's margin must be the same colour.
tile_colour='#1f5fcf'

if ! command -v rsvg-convert >/dev/null 2>&1; then
  echo "build-icons: rsvg-convert not found: install Debian's librsvg2-bin (scripts/deps.sh browser, or apt-get install librsvg2-bin)" >&2
  exit 1
fi

dir="$out/icons"
outputs=("$dir/icon-192.png" "$dir/icon-512.png" "$dir/icon-maskable-512.png")
stale=0
for f in "${outputs[@]}"; do
  if [[ ! -f $f || $svg -nt $f || $self -nt $f ]]; then stale=1; fi
done
(( stale )) || exit 0

mkdir -p "$dir"
# Each PNG is written beside its final name and moved into place, so an interrupted run never
# leaves a half-written icon that looks newer than the SVG.
draw() {  # draw NAME SIZE [rsvg-convert options...]
  local name=$1 size=$2; shift 2
  rsvg-convert --format png --width "$size" --height "$size" "$@" --output "$dir/$name.tmp" "$svg"
  mv -f "$dir/$name.tmp" "$dir/$name"
}
draw icon-192.png 192
draw icon-512.png 512
# 80% of 512 is 409.6: draw at 410 with a 51 px margin on each side (51 + 410 + 51 = 512).
draw icon-maskable-512.png 410 --page-width 512 --page-height 512 --left 51 --top 51 \
  --background-color "$tile_colour"
echo "build-icons: wrote ${outputs[*]#"$out"/}"
