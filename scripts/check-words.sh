#!/usr/bin/env bash
# Every word the learner reads is in src/ui/text: a view names a word there and writes no
# English/Japanese pair itself. Fails on a pair written outside src/ui/text (and the i18n module
# that defines the notation): `lang.t("…", "…")` with a literal, `tr!(…)`, `pair!(…)`.
set -euo pipefail
cd "$(dirname "$0")/.."
hits=$(find src/ui -name '*.rs' ! -path 'src/ui/text/*' ! -path 'src/ui/i18n.rs' | sort | while read -r file; do
  perl -0777 -ne '
    my $src = $_;
    $src =~ s{//[^\n]*}{}g;    # prose in comments may quote the notation
    while ($src =~ /(\.t\(\s*"|\btr!\s*\(|\bpair!\s*\()/g) {
      my $line = 1 + (substr($src, 0, pos($src)) =~ tr/\n//);
      print "$ARGV:$line: $1\n";
    }
  ' "$file"
done)
if [ -n "$hits" ]; then
  echo "check-words: FAILED — $(echo "$hits" | wc -l) English/Japanese pairs written in a view; move each into src/ui/text (see src/ui/text/view/mod.rs):" >&2
  echo "$hits" >&2
  exit 1
fi
echo "check-words: every word is in src/ui/text"
