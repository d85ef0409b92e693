#!/bin/sh
# Install Jiang: the `jiang` binary, and an XBoard engine-list entry (a
# plugin file, the format Debian's xboard reads at start-up) so that
# XBoard's engine menu offers Jiang for Xiangqi and Janggi.
#
# usage: scripts/install.sh [--prefix DIR] [--bindir DIR] [--destdir DIR]
#                           [--binary FILE] [--uninstall]
#   --prefix DIR    where it goes (default /usr/local; XBoard looks for
#                   plugins under /usr/local/share/games and /usr/share/games)
#   --bindir DIR    the binary's directory (default PREFIX/games, next to
#                   Debian's other game engines)
#   --destdir DIR   stage everything under DIR (packaging, tests); the paths
#                   written into the plugin file leave DIR out. The DESTDIR
#                   environment variable does the same.
#   --binary FILE   install this binary instead of building one with
#                   `cargo build --release`
#   --uninstall     remove what an install with the same options put there
#
# Installs BINDIR/jiang and PREFIX/share/games/plugins/xboard/jiang.eng,
# which holds three lines: `plugin spec 0.0`, the command XBoard runs (the
# binary's full path, so PATH does not matter), and the variants.
# XBoard adds an engine whose plugin file is newer than the user's settings
# (option -autoInstall, on in Debian's /etc/xboard/xboard.conf).
set -eu

prefix=/usr/local
bindir=
destdir=${DESTDIR:-}
binary=
uninstall=0

die() {
    echo "install.sh: $*" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case $1 in
    --prefix | --bindir | --destdir | --binary)
        [ $# -ge 2 ] || die "$1 needs a value"
        case $1 in
        --prefix) prefix=$2 ;;
        --bindir) bindir=$2 ;;
        --destdir) destdir=$2 ;;
        --binary) binary=$2 ;;
        esac
        shift 2
        ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    --bindir=*) bindir=${1#*=}; shift ;;
    --destdir=*) destdir=${1#*=}; shift ;;
    --binary=*) binary=${1#*=}; shift ;;
    --uninstall) uninstall=1; shift ;;
    -h | --help)
        sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'
        exit 0
        ;;
    *) die "unknown argument '$1' (see --help)" ;;
    esac
done

[ -n "$bindir" ] || bindir=$prefix/games
case $prefix in /*) ;; *) die "--prefix must be an absolute path" ;; esac
case $bindir in /*) ;; *) die "--bindir must be an absolute path" ;; esac
# XBoard reads the command as one line split at blanks.
case $bindir in *[[:space:]]*) die "--bindir must not contain blanks" ;; esac

plugindir=$prefix/share/games/plugins/xboard
target_bin=$destdir$bindir/jiang
target_eng=$destdir$plugindir/jiang.eng

if [ "$uninstall" = 1 ]; then
    rm -f "$target_bin" "$target_eng"
    echo "removed $target_bin and $target_eng"
    exit 0
fi

if [ -z "$binary" ]; then
    root=$(cd "$(dirname "$0")/.." && pwd)
    (cd "$root" && ${CARGO:-cargo} build --release --bin jiang) || die "build failed"
    binary=$root/target/release/jiang
fi
[ -f "$binary" ] && [ -x "$binary" ] || die "no executable binary at '$binary'"

mkdir -p "$destdir$bindir" "$destdir$plugindir"
cp "$binary" "$target_bin.tmp"
chmod 755 "$target_bin.tmp"
mv -f "$target_bin.tmp" "$target_bin"
printf 'plugin spec 0.0\n%s\nxiangqi,janggi\n' "$bindir/jiang" >"$target_eng"
chmod 644 "$target_eng"
echo "installed $target_bin and $target_eng"
