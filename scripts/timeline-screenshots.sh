#!/usr/bin/env bash
# Regenerates the pictures of `hlomem timeline` in docs/ from the seed dumps, with headless
# Chromium (scripts/install-deps.sh chromium): docs/timeline-NNN.png, the top of each page.
#   scripts/timeline-screenshots.sh [BUILD_DIR]     (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
hlomem="${1:-build}/examples/hlomem"
chromium=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# seed:height of the window, enough for the first color's panel and the top of its peak table.
for seed in 000_5960cad812240b69:900 002_b0117d631587537a:1000 003_3a38346822a50a7e:900; do
  name=${seed%%:*}
  height=${seed##*:}
  "$hlomem" timeline "tests/data/seeds/$name.txt" -o "$work/$name.html" >/dev/null
  "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/profile" \
    --window-size=1100,"$height" --screenshot="docs/timeline-${name%%_*}.png" "file://$work/$name.html" 2>/dev/null
  echo "docs/timeline-${name%%_*}.png: $(stat -c %s "docs/timeline-${name%%_*}.png") bytes"
done
