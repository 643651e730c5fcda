#!/usr/bin/env bash
# Functions of at most 70 lines, for the ones clippy's `too_many_lines` cannot see: Yew's
# `#[component]`, `#[function_component]` and `#[hook]` macros rewrite the function, and clippy
# measures the rewritten one. Counts the lines from `fn` to its closing brace that hold code, as
# clippy does (blank lines and comment lines are not counted).
set -euo pipefail
cd "$(dirname "$0")/.."
max=70
hits=$(find src -name '*.rs' | sort | while read -r file; do
  MAX=$max perl -ne '
    BEGIN { $max = $ENV{MAX}; }
    if (/^\s*#\[(?:component|function_component|hook)\b/) { $armed = 1; next; }
    if ($armed && !$in && /^\s*(?:pub(?:\([a-z]+\))?\s+)?fn\s+(\w+)/) {
      ($name, $start, $depth, $in, $armed, $n) = ($1, $., 0, 1, 0, 0);
    }
    if ($in) {
      my $code = $_; $code =~ s{"(?:[^"\\]|\\.)*"}{""}g; $code =~ s{//.*}{};
      $n++ if $code =~ /\S/;
      $depth += () = $code =~ /\{/g; $depth -= () = $code =~ /\}/g;
      if ($depth == 0 && $code =~ /\}/) {
        print "$ARGV:$start: $name is $n lines (at most $max)\n" if $n > $max;
        $in = 0;
      }
    }
    close ARGV if eof;
  ' "$file"
done)
if [ -n "$hits" ]; then
  echo "component-length: FAILED — split these into view functions:" >&2
  echo "$hits" >&2
  exit 1
fi
echo "component-length: every component and hook is at most $max lines"
