#!/usr/bin/env bash
# Architecture invariants of the simulation core (src/sim), checked by reading its source:
#   1. it uses no UI or browser crate, no `crate::ui`, no clock and no OS randomness;
#   2. what each folder may import: `base` nothing of ours, `kernel` and `lesson` (the teaching
#      vocabulary) only `base`, `article` only
#      `base` and `limits`,
#      `world` no `lab` (nor `scenario` or `properties`, which are built on it), `properties` no
#      `lab` (property checks run the world, not the lab's step models), `kafka` only `base`,
#      `kernel`, `lesson`, `limits` and `json` (a model of its own), `durable` only `article`,
#      `base`, `json`, `kernel`, `lesson` and `limits`, and no other folder imports `durable`;
#   3. no import circle: between the files of one folder (a folder's `mod.rs` owns its children,
#      so child -> parent is ordinary use and not an edge), nor between the folders of src/sim;
#      the same for src/ui (its pages, the run edge, the words).
# Edges are read from `super::name` and `crate::sim::name` paths, `use` groups included; tsort
# (coreutils) finds the circles.
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0
say_fail() { echo "core-imports: FAILED — $*" >&2; fail=1; }

# 1. forbidden names (comments included: the words have no business in the core at all)
hits=$(grep -rnE '\b(yew|web_sys|gloo|gloo_timers|wasm_bindgen|wasm_bindgen_futures|js_sys|getrandom|thread_rng|Instant|SystemTime)\b|crate::ui\b|std::time\b' src/sim || true)
if [ -n "$hits" ]; then
  say_fail "src/sim must not use UI or browser crates, a clock or OS randomness:"
  echo "$hits" >&2
fi

# Paths through the core's root re-exports (`crate::sim::World`) hide which folder an item comes
# from, so the rules below could not see them: inside src/sim, name an item by its own module.
hits=$(grep -rnE 'crate::sim::(\{|[A-Z])' src/sim --include='*.rs' | grep -v '^src/sim/mod.rs:' || true)
if [ -n "$hits" ]; then
  say_fail "inside src/sim, use an item's own path (crate::sim::world::World), not the root re-export:"
  echo "$hits" >&2
fi

# Prints "from to" lines: the modules each .rs file under src/sim names, as paths relative to
# src/sim (a folder `world`, a file `world/client`, a top-level file `limits`).
edges() {
  local root=$1
  find "src/$root" -name '*.rs' | sort | while read -r file; do
    ROOT=$root perl -0777 -ne '
      my $root = $ENV{ROOT};
      my $file = $ARGV; $file =~ s{^src/$root/}{}; $file =~ s{\.rs$}{};
      my $dir = $file =~ m{^(.*)/[^/]+$} ? $1 : "";
      $dir = $file =~ s{/mod$}{}r if $file =~ m{/mod$};    # a folder mod.rs is the folder
      my $self = $file =~ s{/mod$}{}r;
      my $parent_of_file = $file =~ m{/mod$} ? ($self =~ m{^(.*)/[^/]+$} ? $1 : "") : $dir;
      s{//[^\n]*}{}g;                                     # comments name modules in prose
      s{\#\[cfg\(test\)\]\s*mod tests\b.*}{}s;              # a test module may use anything
      my %to;
      # expands `prefix::{a::x, b, c::{d, e}}` into first segments after the prefix
      my $group; $group = qr/\{(?:[^{}]++|(??{$group}))*\}/;
      while (/\b(super|crate::$root)::((?:[a-z_][a-z0-9_]*::)*)(\{|[a-z_][a-z0-9_]*|[A-Z])/g) {
        my ($root, $path, $next) = ($1, $2, $3);
        my $base = $root eq "super" ? $parent_of_file : "";
        my @segs = grep { length } split /::/, $path;
        # `super::super::…` climbs one folder per further `super`.
        while ($root eq "super" && @segs && $segs[0] eq "super") {
          shift @segs;
          $base = $base =~ m{^(.*)/[^/]+$} ? $1 : "";
        }
        if ($next eq "{") {
          $to{join("/", grep { length } $base, @segs)} = 1 if @segs;
          my $rest = substr($_, pos($_) - 1);
          $rest =~ /^($group)/ or next;
          my $inner = substr($1, 1, -1);
          $inner =~ s/$group//g;
          for my $item (split /,/, $inner) {
            $item =~ s/^\s+|\s+$//g;
            next unless $item =~ /^([a-z_][a-z0-9_]*)(::|$)/;
            next if $1 eq "self";
            $to{join("/", grep { length } $base, @segs, $1)} = 1;
          }
        } elsif ($next =~ /^[a-z]/) {
          $to{join("/", grep { length } $base, @segs, $next)} = 1;
        } elsif (@segs) {
          $to{join("/", grep { length } $base, @segs)} = 1;
        }
      }
      print "$self $_\n" for sort keys %to;
    ' "$file"
  done
}
# A module path that is a folder or a file, as it exists on disk (drops items such as `super::x`
# where `x` is a function of the parent, and the file part of paths deeper than a file).
resolve() {
  local root=$1 p=$2
  while [ -n "$p" ]; do
    if [ -d "src/$root/$p" ] || [ -f "src/$root/$p.rs" ]; then echo "$p"; return; fi
    case "$p" in */*) p=${p%/*} ;; *) return ;; esac
  done
}
resolved_edges() {
  edges "$1" | while read -r from to; do
    t=$(resolve "$1" "$to")
    if [ -n "$t" ] && [ "$t" != "$from" ]; then echo "$from $t"; fi
  done | sort -u
}
all=$(resolved_edges sim)

# 2. what each folder may import
top() { echo "${1%%/*}"; }
while read -r from to; do
  [ -n "$from" ] || continue
  f=$(top "$from"); t=$(top "$to")
  if [ "$f" = "$t" ]; then continue; fi
  case "$f:$t" in
    base:*) say_fail "src/sim/$from.rs imports $to: base imports nothing of ours" ;;
    kernel:base) ;;
    kernel:*) say_fail "src/sim/$from.rs imports $to: the kernel imports only base" ;;
    lesson:base) ;;
    lesson:*) say_fail "src/sim/$from.rs imports $to: the teaching vocabulary imports only base" ;;
    article:base|article:limits) ;;
    article:*) say_fail "src/sim/$from.rs imports $to: article may import only base and limits" ;;
    world:lab|world:scenario|world:properties) say_fail "src/sim/$from.rs imports $to: world may not import $t" ;;
    properties:lab) say_fail "src/sim/$from.rs imports $to: properties may not import lab" ;;
    kafka:base|kafka:limits|kafka:json|kafka:kernel|kafka:lesson) ;;
    kafka:*) say_fail "src/sim/$from.rs imports $to: kafka is a model of its own (base, kernel, lesson, limits, json only)" ;;
    limits:*) say_fail "src/sim/$from.rs imports $to: limits imports nothing of ours" ;;
    durable:article|durable:base|durable:json|durable:kernel|durable:lesson|durable:limits) ;;
    durable:*) say_fail "src/sim/$from.rs imports $to: durable may import only article, base, json, kernel, lesson and limits" ;;
    *:durable) say_fail "src/sim/$from.rs imports $to: no other folder of the core builds on durable" ;;
  esac
done <<< "$all"

# 3. no import circle, in the core and in the UI alike
circles() {
local root=$1 edges=$2
# a. circles between the files of one folder (parent <-> child edges are not circles)
for dir in $(find "src/$root" -type d | sed "s#^src/$root/\\{0,1\\}##" | sort); do
  prefix=${dir:+$dir/}
  sib=$(while read -r from to; do
    [ -n "$from" ] || continue
    case "$from" in "$prefix"*) ;; *) continue ;; esac
    case "$to" in "$prefix"*) ;; *) continue ;; esac
    a=${from#"$prefix"}; b=${to#"$prefix"}; a=${a%%/*}; b=${b%%/*}
    # the folder's own mod.rs is `$dir`, outside the prefix; children of subfolders collapse
    if [ "$a" != "$b" ]; then echo "$a $b"; fi
  done <<< "$edges" | sort -u)
  [ -n "$sib" ] || continue
  if ! out=$(echo "$sib" | tsort 2>&1 >/dev/null); then
    say_fail "an import circle between the files of src/$root/${dir:-.}:"
    echo "$out" | grep -v '^tsort: -: input contains a loop:' | sed 's/^tsort: /  /' >&2
  fi
done

# b. circles between the folders (and top-level files) of src/sim
folders=$(while read -r from to; do
  [ -n "$from" ] || continue
  f=$(top "$from"); t=$(top "$to")
  if [ "$f" != "$t" ] && [ "$f" != mod ]; then echo "$f $t"; fi
done <<< "$edges" | sort -u)
if [ -n "$folders" ] && ! out=$(echo "$folders" | tsort 2>&1 >/dev/null); then
  say_fail "an import circle between the folders of src/$root:"
  echo "$out" | grep -v '^tsort: -: input contains a loop:' | sed 's/^tsort: /  /' >&2
fi

}
circles sim "$all"
ui_edges=$(resolved_edges ui)
circles ui "$ui_edges"

[ "$fail" = 0 ] || exit 1
echo "core-imports: src/sim uses no UI crate, clock or OS randomness; folder rules hold; no import circle in src/sim or src/ui ($(echo "$all" | grep -c .) and $(echo "$ui_edges" | grep -c .) edges read)"
