#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# check-install.sh BUILD_DIR SOURCE_DIR
# Installs the build into a temporary root (DESTDIR, prefix /usr) and checks what a desktop user gets:
# the files in their places, the desktop entry, AppStream metainfo and MIME type valid by their own
# tools, the PNG icons at their sizes, the man pages free of warnings and in step with --help, bash
# completion offering the presets, and the installed binaries running from PATH.
# A validator that is not installed is skipped with a message (scripts/install-deps.sh --test installs
# them) and the script then exits 77, which ctest reports as skipped (SKIP_RETURN_CODE); with CI=true in
# the environment a missing validator fails instead. Anything else missing fails.
set -euo pipefail
build=$1 src=$2
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
fail() { echo "check-install: $*" >&2; exit 1; }
skipped=0
skip() {
  [ "${CI:-}" != true ] || fail "$* (CI=true: scripts/install-deps.sh --test installs it)"
  echo "check-install: skipped: $*"; skipped=$((skipped + 1))
}

DESTDIR=$root cmake --install "$build" --prefix /usr >/dev/null
u=$root/usr
gui=0
[ -x "$build/app/tickscope" ] && gui=1

files=(bin/tickscope-cli share/man/man1/tickscope-cli.1.gz share/bash-completion/completions/tickscope-cli
       share/doc/tickscope/changelog.gz share/doc/tickscope/copyright)
if [ $gui = 1 ]; then
  files+=(bin/tickscope share/man/man1/tickscope.1.gz share/applications/tickscope.desktop
          share/metainfo/io.github.tickscope.metainfo.xml share/mime/packages/tickscope.xml
          share/icons/hicolor/scalable/apps/tickscope.svg libexec/tickscope/tickscope-render)
  for s in 48 128 256; do files+=(share/icons/hicolor/${s}x${s}/apps/tickscope.png); done
fi
for f in "${files[@]}"; do [ -s "$u/$f" ] || fail "not installed: /usr/$f"; done
echo "check-install: ${#files[@]} files installed"

# ---- the installed binaries, from PATH ----
export PATH=$u/bin:$PATH
[ "$(command -v tickscope-cli)" = "$u/bin/tickscope-cli" ] || fail "tickscope-cli is not the installed one"
v=$(tickscope-cli --version) && grep -Eq '^tickscope-cli [0-9]+\.[0-9]+\.[0-9]+' <<<"$v" || fail "tickscope-cli --version"
out=$(tickscope-cli simulate seed000-nohzfull-poll) || fail "installed tickscope-cli simulate failed"
grep -q "nohz_full" <<<"$out" || fail "simulate printed no report"

# ---- man pages: no groff warnings; every command and option of --help documented, and no other ----
manText() { MANWIDTH=200 man -E ascii -l "$1" 2>/dev/null | col -b; }
for page in "$u"/share/man/man1/*.1.gz; do
  w=$(man --warnings -E ascii -l "$page" 2>&1 >/dev/null) || fail "man $page failed"
  [ -z "$w" ] || fail "groff warnings in $(basename "$page"): $w"
done
checkOptions() { # NAME HELP_TEXT MAN_PAGE
  local name=$1 help=$2 page=$3 text opt
  text=$(manText "$page")
  for opt in $(grep -oE -- '--[a-z][a-z-]*' <<<"$help" | sort -u); do
    grep -qF -- "$opt" <<<"$text" || fail "$name: $opt is in --help but not in $(basename "$page")"
  done
  for opt in $(grep -oE -- '--[a-z][a-z-]*' <<<"$text" | sort -u); do
    grep -qF -- "$opt" <<<"$help" || fail "$name: $opt is in $(basename "$page") but not in --help"
  done
}
help=$(tickscope-cli --help)
checkOptions tickscope-cli "$help" "$u/share/man/man1/tickscope-cli.1.gz"
page=$(manText "$u/share/man/man1/tickscope-cli.1.gz") # (grep -q on a pipe would SIGPIPE man under pipefail)
for cmd in $(grep -oE '^  [a-z]+ ' <<<"$help" | sort -u); do
  grep -qE "tickscope-cli $cmd" <<<"$page" || fail "tickscope-cli: command $cmd is not in the man page's synopsis"
done
if [ $gui = 1 ]; then
  export QT_QPA_PLATFORM=offscreen
  v=$(tickscope --version) && grep -Eq '^tickscope [0-9]+\.[0-9]+\.[0-9]+' <<<"$v" || fail "tickscope --version"
  help=$(tickscope --help)
  checkOptions tickscope "$help" "$u/share/man/man1/tickscope.1.gz"
fi
echo "check-install: man pages match --help"
# ---- tickscope-cli render finds its helper in the installed tree ----
if [ $gui = 1 ]; then
  out=$(mktemp -d)
  env -u DISPLAY tickscope-cli render "$src/tests/data/nohzfull-poll.dat" --out "$out/r.png" ||
    fail "tickscope-cli render from the installed tree"
  [ "$(od -An -c -j1 -N3 "$out/r.png" | tr -d ' ')" = "PNG" ] || fail "render did not write a PNG"
  rm -rf "$out"
  echo "check-install: tickscope-cli render runs the installed tickscope-render"
fi

# ---- desktop integration ----
if [ $gui = 1 ]; then
  if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$u/share/applications/tickscope.desktop" || fail "desktop-file-validate"
  else skip "desktop-file-validate (desktop-file-utils) not installed"; fi
  if command -v appstreamcli >/dev/null; then
    appstreamcli validate --no-net "$u/share/metainfo/io.github.tickscope.metainfo.xml" >/dev/null ||
      fail "appstreamcli validate: $(appstreamcli validate --no-net "$u/share/metainfo/io.github.tickscope.metainfo.xml")"
  else skip "appstreamcli (appstream) not installed"; fi
  # the MIME magic is the first bytes of every trace.dat
  magic=$(head -c 10 "$src/tests/data/host-sleep.dat" | od -An -c | tr -s ' ')
  [ "$magic" = " 027 \b D t r a c i n g" ] || fail "fixture magic is '$magic'"
  grep -qF 'value="\x17\x08\x44tracing"' "$u/share/mime/packages/tickscope.xml" || fail "MIME magic"
  if command -v update-mime-database >/dev/null; then
    update-mime-database "$u/share/mime" >/dev/null 2>&1 || fail "update-mime-database"
    grep -q "application/x-trace-cmd-dat" "$u/share/mime/magic" || fail "MIME type not in the compiled magic"
  else skip "update-mime-database (shared-mime-info) not installed"; fi
  for s in 48 128 256; do
    png=$u/share/icons/hicolor/${s}x${s}/apps/tickscope.png
    dims=$(od -An -tu1 -j16 -N8 "$png" | awk '{print $3*256+$4 "x" $7*256+$8}')
    [ "$dims" = "${s}x${s}" ] || fail "$png is $dims"
  done
  echo "check-install: desktop entry, metainfo, MIME type and icons valid"
fi

# ---- bash completion ----
bc=/usr/share/bash-completion/bash_completion
if [ -f $bc ]; then
  got=$(bash -c "source $bc; source '$u/share/bash-completion/completions/tickscope-cli'
    COMP_WORDS=(tickscope-cli simulate seed000-nohzfull-poll:p1); COMP_CWORD=2
    COMP_LINE='tickscope-cli simulate seed000-nohzfull-poll:p1'; COMP_POINT=\${#COMP_LINE}
    _tickscope_cli; printf '%s\n' \"\${COMPREPLY[@]}\"")
  grep -qx "p1p2" <<<"$got" || grep -qx "seed000-nohzfull-poll:p1p2" <<<"$got" ||
    fail "completion of 'simulate seed000-nohzfull-poll:p1' offered: $got"
  got=$(bash -c "source $bc; source '$u/share/bash-completion/completions/tickscope-cli'
    COMP_WORDS=(tickscope-cli report x.dat --mar); COMP_CWORD=3
    COMP_LINE='tickscope-cli report x.dat --mar'; COMP_POINT=\${#COMP_LINE}
    _tickscope_cli; printf '%s\n' \"\${COMPREPLY[@]}\"")
  [ "$got" = "--markers" ] || fail "completion of 'report x.dat --mar' offered: $got"
  echo "check-install: bash completion offers variants and options"
else skip "bash completion ($bc, package bash-completion) not installed"; fi
if [ $skipped != 0 ]; then echo "check-install: ok, but $skipped checks skipped: not a pass"; exit 77; fi
echo "check-install: ok"
