#!/usr/bin/env bash
# Removes what install.sh put on a Raspberry Pi.
#
#   sudo systemd/uninstall.sh              stops and removes the services and the virtual environment;
#                                          keeps the configuration and the journal of scores
#   sudo systemd/uninstall.sh --purge      also the configuration, the journal (the club's database) and
#                                          the user tablescore
#   systemd/uninstall.sh --root DIR        a rehearsal under DIR, as with install.sh (ROOT=DIR too)
#
# The system packages stay (other programs may use them), and I2C stays on. Running it again is safe.
set -euo pipefail

# shellcheck source=systemd/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() {
    sed -n '2,8s/^# \{0,1\}//p' "$0"
}

parse_root "$@"
PURGE=0
for arg in ${REST[@]+"${REST[@]}"}; do
    case $arg in
        --purge) PURGE=1 ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; fail "unknown option $arg" ;;
    esac
done
need_root

say "the services"
for unit in "${UNITS[@]}" "$CLUB_UNIT"; do
    if [ -e "$ROOT$UNIT_DIR/$unit" ]; then
        run systemctl disable --now "$unit"
    fi
    rm -f "$ROOT$UNIT_DIR/$unit"
done
rm -rf "$ROOT$CLUB_DROP_IN_DIR"
run systemctl daemon-reload

say "the virtual environment and the kernel modules list"
rm -rf "$ROOT$PREFIX"
rm -f "$ROOT$COMMAND_LINK"
rm -f "$ROOT$MODULES_CONF"

if [ "$PURGE" = 1 ]; then
    say "the configuration, the journal and the user (--purge)"
    rm -rf "$ROOT$CONFIG_DIR" "$ROOT$STATE_DIR" "$ROOT$CLUB_STATE_DIR"
    if id -u "$ACCOUNT" >/dev/null 2>&1; then
        run userdel "$ACCOUNT"
    fi
else
    echo "kept: $CONFIG and the journal of scores in $STATE_DIR (--purge removes them)"
fi
say "done"
