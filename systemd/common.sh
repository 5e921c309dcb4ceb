# Shared by install.sh and uninstall.sh (sourced, not run): where tablescore goes on a Raspberry Pi, and
# how a command that changes the system runs, or, in a rehearsal (--root DIR or ROOT=DIR), is only shown.
# shellcheck shell=bash

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)   # the checkout the scripts came from
PREFIX=/opt/tablescore                                     # the virtual environment lives in $PREFIX/venv
VENV=$PREFIX/venv
BUILD=$PREFIX/build                                        # a fresh copy of the source, built from, then removed
COMMAND_LINK=/usr/local/bin/tablescore                     # the command on everyone's PATH
CONFIG_DIR=/etc/tablescore
CONFIG=$CONFIG_DIR/tablescore.toml
UNIT_DIR=/etc/systemd/system
UNITS=(tablescore.service tablescore-kiosk.service)
CLUB_UNIT=tablescore-club.service                          # the club server (install.sh --club-server)
CLUB_CONFIG=$CONFIG_DIR/club.toml
CLUB_STATE_DIR=/var/lib/tablescore-club                    # its StateDirectory=: the club's database
CLUB_DROP_IN_DIR=$UNIT_DIR/tablescore.service.d            # a club's table: the network for its broker
MOSQUITTO_DIR=/etc/mosquitto
STATE_DIR=/var/lib/tablescore                              # systemd's StateDirectory=: the journal
MODULES_CONF=/etc/modules-load.d/tablescore.conf
ACCOUNT=tablescore
DEVICE_GROUPS=(video i2c gpio dialout)                     # camera, OLED, buttons, seat panel

ROOT=${ROOT:-}

# parse_root ARG...: takes --root DIR / --root=DIR out of the arguments into ROOT; the rest are left in
# REST. A rehearsal root must be a directory other than / (it is made if missing); for real, only root
# may install.
parse_root() {
    REST=()
    while [ $# -gt 0 ]; do
        case $1 in
            --root) [ $# -ge 2 ] || fail "--root needs a directory"; ROOT=$2; shift 2 ;;
            --root=*) ROOT=${1#--root=}; shift ;;
            *) REST+=("$1"); shift ;;
        esac
    done
    if [ -n "$ROOT" ]; then
        case $ROOT in /*) ;; *) ROOT=$PWD/$ROOT ;; esac
        ROOT=${ROOT%/}
        [ -n "$ROOT" ] || fail "--root / is the real system: leave --root out to install for real"
        mkdir -p "$ROOT"
    fi
}

# need_root: stops unless this is a rehearsal or the script runs as root.
need_root() {
    if [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
        fail "run it as root (sudo $0), or rehearse with --root DIR"
    fi
}

fail() {
    echo "$(basename "$0"): $*" >&2
    exit 2
}

say() {
    echo "== $*"
}

# A rehearsal installs into ROOT as if it were the system: files are written under ROOT; each command that
# would change the system is shown instead of run; questions about the system (is there a user, a group, a
# package in the archive, raspi-config?) are answered by looking at this machine, which is never changed.
rehearsing() {
    [ -n "$ROOT" ]
}

# run COMMAND...: runs it (shown as "+ COMMAND"), or in a rehearsal shows "would run: COMMAND".
run() {
    if rehearsing; then
        echo "would run:$(shown "$@")"
    else
        echo "+$(shown "$@")"
        "$@"
    fi
}

# shown ARG...: the command line as a shell would take it back, quoting only where needed.
shown() {
    local arg
    for arg in "$@"; do
        case $arg in
            "" | *[!A-Za-z0-9_./,:=+@%-]*) arg="'${arg//\'/\'\\\'\'}'" ;;
        esac
        printf ' %s' "$arg"
    done
}
