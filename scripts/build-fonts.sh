#!/usr/bin/env bash
# Subsets the fonts dtx draws with, from Debian's font packages, to the glyphs listed in
# assets/glyph-ranges.txt (the same list CMake bakes into the ImGui atlas).
#
#   scripts/build-fonts.sh OUTDIR
#
# Inter (fonts-inter) for prose: Regular, SemiBold, Italic; JetBrains Mono
# (fonts-jetbrains-mono) for code. Nothing is committed: the fonts are made at build time.
set -euo pipefail
out=${1:?usage: scripts/build-fonts.sh OUTDIR}
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ranges=$(grep -oE '^U\+[0-9A-Fa-f]+(-[0-9A-Fa-f]+)?' "$repo_root/assets/glyph-ranges.txt" | paste -sd, -)
mkdir -p "$out"
inter=/usr/share/fonts/opentype/inter
mono=/usr/share/fonts/truetype/jetbrains-mono
for f in "$inter/Inter-Regular.otf" "$inter/Inter-SemiBold.otf" "$inter/Inter-Italic.otf" "$mono/JetBrainsMono-Regular.ttf"; do
  [[ -f $f ]] || { echo "build-fonts: $f is missing (scripts/deps.sh browser installs it)" >&2; exit 1; }
  dest="$out/$(basename "$f")"
  # Rebuild only when the source font or the glyph list is newer than what we made.
  # No OpenType layout tables (GSUB, GPOS: kerning, ligatures): ImGui never reads them, and the
  # text layer turns kerning and ligatures off to stay on the canvas's glyphs (dtx.css). That
  # is a third of each file (Inter Regular 36.6 -> 25.4 KiB gzip); glyph names go too.
  if [[ ! -f $dest || $f -nt $dest || $repo_root/assets/glyph-ranges.txt -nt $dest || ${BASH_SOURCE[0]} -nt $dest ]]; then
    /usr/bin/pyftsubset "$f" --unicodes="$ranges" --no-hinting --desubroutinize \
      --layout-features='' --no-glyph-names --output-file="$dest.tmp"
    mv "$dest.tmp" "$dest"
  fi
done
