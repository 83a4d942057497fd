#!/usr/bin/env bash
# scripts/npm-ci.sh DIR — install DIR's npm packages exactly as package-lock.json pins them.
#
# `npm ci` is tried first. The registry this project builds against does not serve some optional
# platform packages (e.g. @rollup/rollup-android-arm-eabi), so npm cannot record them in the lock
# file and `npm ci` then refuses the lock as "not in sync". Only in that case this falls back to
# `npm install` with the lock file and checks that the lock file came out unchanged — so a lock
# file that really is out of date with package.json still fails, with a clear message.
set -euo pipefail
cd "$1"
say() { echo "npm-ci: $*"; }
[ -f package-lock.json ] || { say "ERROR: $PWD/package-lock.json is missing: run 'npm install' in $PWD and commit it" >&2; exit 1; }

err=$(mktemp)
lock=$(mktemp)
trap 'rm -f "$err" "$lock"' EXIT
if npm ci --no-audit --no-fund 2>"$err"; then
  cat "$err" >&2
  exit 0
fi
cat "$err" >&2
if ! grep -q "can only install packages when your package.json and package-lock.json" "$err"; then
  say "ERROR: npm ci failed (see above)" >&2
  exit 1
fi
missing=$(grep -o 'Missing: [^ ]*' "$err" | sed 's/Missing: //; s/@$//' | sort -u || true)
say "npm ci refused package-lock.json; packages it misses: $(echo "$missing" | tr '\n' ' ')"
say "falling back to 'npm install' with the lock file (it must stay unchanged)"
cp package-lock.json "$lock"
npm install --no-audit --no-fund
if ! cmp -s package-lock.json "$lock"; then
  cp "$lock" package-lock.json
  say "ERROR: package-lock.json is out of sync with package.json: run 'npm install' in $PWD and commit package-lock.json" >&2
  exit 1
fi
say "installed exactly the versions in package-lock.json"
