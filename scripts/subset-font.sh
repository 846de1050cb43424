#!/usr/bin/env bash
# Makes src/app/fonts/inter-wght-400-700.woff2, the site's only web font, from the npm package
# @fontsource-variable/inter (SIL Open Font License 1.1, see src/app/fonts/OFL.txt):
# - the weight axis cut to 400-700, the weights the site uses (normal, medium, semibold, bold);
# - the glyphs cut to Basic Latin, Latin-1 (accented names, ©, ×), typographic punctuation
#   (dashes, quotes, bullet, ellipsis), € and ™ (the ranges also ask for ₹ and arrows, which the
#   latin file does not have); other characters fall back to the metric-matched local font that
#   next/font declares, without a layout shift;
# - the layout features cut to composition and kerning (ccmp, locl, kern, liga, mark, mkmk):
#   Inter's contextual and stylistic alternates and fractions are not used.
# 48 KB -> 21 KB. Needs Python's fontTools and brotli (`pip install fonttools brotli`).
# Run it again after a change of @fontsource-variable/inter and commit the result (fontTools stamps
# the modification time into the file, so each run differs by a few bytes).
set -euo pipefail
cd "$(dirname "$0")/.."
source=node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2
target=src/app/fonts/inter-wght-400-700.woff2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 -m fontTools.varLib.instancer "$source" wght=400:700 --output "$work/inter.woff2" --quiet
python3 -m fontTools.subset "$work/inter.woff2" \
  --unicodes='U+0020-007E,U+00A0-00FF,U+2010-2027,U+20AC,U+20B9,U+2122,U+2190-2193' \
  --layout-features='ccmp,locl,kern,liga,mark,mkmk' --flavor=woff2 --output-file="$target"
cp node_modules/@fontsource-variable/inter/LICENSE src/app/fonts/OFL.txt
ls -l "$source" "$target"
