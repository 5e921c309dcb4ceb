#!/usr/bin/env bash
# Installs tablescore on Raspberry Pi OS (Bookworm or later) as a systemd service.
#
#   sudo systemd/install.sh                the scorekeeper (tablescore.service), started now and at boot
#   sudo systemd/install.sh --kiosk        the kiosk demo instead (tablescore-kiosk.service)
#   sudo systemd/install.sh --no-start     everything, but start nothing now (it starts at the next boot)
#   sudo systemd/install.sh --club         the scorekeeper of a club's table: its sandbox may reach the
#                                          club's MQTT broker ([club] in the configuration)
#   sudo systemd/install.sh --club-server  the club server instead (tablescore-club.service) beside
#                                          Mosquitto, with the club's ACL; no camera or OLED needed
#   systemd/install.sh --root DIR          a rehearsal: files go under DIR, and each command that would
#                                          change the system (apt-get, useradd, pip, systemctl...) is shown
#                                          instead of run; ROOT=DIR does the same
#
# What it does: system packages (picamera2 and lgpio from Raspberry Pi OS, I2C tools, OpenCV's libraries);
# I2C turned on; the kernel modules behind the devices loaded at boot; the unprivileged user `tablescore`
# in the device groups; a virtual environment in /opt/tablescore/venv that sees the system's picamera2,
# with tablescore from this checkout installed in it (and the command in /usr/local/bin); the owner who
# ran it in the group `tablescore`, to read the scores; the configuration /etc/tablescore/tablescore.toml
# (an example, only when there is none); both units; the chosen one enabled and (re)started.
# Running it again is safe: it updates the package and the units, keeps the configuration and the
# journal, and restarts the service.
set -euo pipefail
umask 022   # the service's user must read the virtual environment and the units

# shellcheck source=systemd/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PACKAGES=(python3-venv python3-pip python3-picamera2 python3-lgpio i2c-tools libgl1 libglib2.0-0)
KERNEL_MODULES=(i2c-dev cdc_acm videodev)   # /dev/i2c-*, /dev/ttyACM*, /dev/video*: see the units

usage() {
    sed -n '2,13s/^# \{0,1\}//p' "$0"
}

# install_club_server: the club server's configuration, Mosquitto's for the club, and the unit.
install_club_server() {
    say "the configuration $CLUB_CONFIG"
    mkdir -p "$ROOT$CONFIG_DIR"
    if [ -e "$ROOT$CLUB_CONFIG" ]; then
        echo "kept: $CLUB_CONFIG (the example is $SOURCE/systemd/club.toml)"
    else
        install -m 0640 "$SOURCE/systemd/club.toml" "$ROOT$CLUB_CONFIG"   # it holds the broker's password
        run chgrp "$ACCOUNT" "$CLUB_CONFIG"
        echo "wrote: $CLUB_CONFIG: set the club's name and the server's password there"
    fi

    say "Mosquitto for the club"
    mkdir -p "$ROOT$MOSQUITTO_DIR/conf.d"
    for file in conf.d/tablescore-club.conf tablescore-club.acl; do
        if [ -e "$ROOT$MOSQUITTO_DIR/$file" ]; then
            echo "kept: $MOSQUITTO_DIR/$file"
        else
            install -m 0644 "$SOURCE/systemd/mosquitto-club.${file##*.}" "$ROOT$MOSQUITTO_DIR/$file"
            echo "wrote: $MOSQUITTO_DIR/$file"
        fi
    done
    if [ ! -e "$ROOT$MOSQUITTO_DIR/tablescore-club.passwd" ]; then
        install -m 0640 /dev/null "$ROOT$MOSQUITTO_DIR/tablescore-club.passwd"
        run chgrp mosquitto "$MOSQUITTO_DIR/tablescore-club.passwd"
    fi

    say "the service"
    mkdir -p "$ROOT$UNIT_DIR"
    install -m 0644 "$SOURCE/systemd/$CLUB_UNIT" "$ROOT$UNIT_DIR/$CLUB_UNIT"
    run systemctl daemon-reload
    run systemctl enable "$CLUB_UNIT"
    if [ "$START" = 1 ]; then
        run systemctl restart mosquitto.service "$CLUB_UNIT"
    fi

    say "done"
    echo "now: the club's name in $CLUB_CONFIG and $MOSQUITTO_DIR/tablescore-club.acl; a password for the"
    echo "server and for each table: mosquitto_passwd $MOSQUITTO_DIR/tablescore-club.passwd NAME;"
    echo "then systemctl restart mosquitto $CLUB_UNIT. The standings: http://$(hostname):8080/ (TV: /tv)"
}

parse_root "$@"
KIOSK=0
START=1
CLUB=0
SERVER=0
for arg in ${REST[@]+"${REST[@]}"}; do
    case $arg in
        --kiosk) KIOSK=1 ;;
        --no-start) START=0 ;;
        --club) CLUB=1 ;;
        --club-server) SERVER=1 ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; fail "unknown option $arg" ;;
    esac
done
need_root
[ "$SERVER" = 0 ] || [ "$KIOSK$CLUB" = 00 ] || fail "--club-server installs the club server, not a table"

if ! rehearsing; then
    command -v apt-get >/dev/null || fail "this installer is for Raspberry Pi OS (Debian, with apt-get)"
    python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
        || fail "tablescore needs Python 3.11 or newer (Raspberry Pi OS Bookworm); this is $(python3 --version)"
fi

if [ "$SERVER" = 1 ]; then
    PACKAGES=(python3-venv python3-pip mosquitto)
    DEVICE_GROUPS=()
fi

say "system packages"
run apt-get update
available=()
for package in "${PACKAGES[@]}"; do
    if apt-cache show "$package" >/dev/null 2>&1; then
        available+=("$package")
    else
        echo "note: $package is not in this system's archives (not Raspberry Pi OS?): left out"
    fi
done
if [ ${#available[@]} -gt 0 ]; then
    run apt-get install -y --no-install-recommends "${available[@]}"
fi

if [ "$SERVER" = 0 ]; then
    say "I2C for the OLED"
    if command -v raspi-config >/dev/null; then
        run raspi-config nonint do_i2c 0
    else
        echo "note: no raspi-config here: turn I2C on yourself (dtparam=i2c_arm=on in the boot config.txt)"
    fi

    say "kernel modules for the devices, at boot and now"
    mkdir -p "$ROOT$(dirname "$MODULES_CONF")"
    {
        echo "# tablescore: the drivers of the devices tablescore.service may open (its DeviceAllow= lines name"
        echo "# their major numbers, which systemd looks up when the service starts). Written by install.sh."
        printf '%s\n' "${KERNEL_MODULES[@]}"
    } >"$ROOT$MODULES_CONF"
    run modprobe -a "${KERNEL_MODULES[@]}" || echo "note: not all of ${KERNEL_MODULES[*]} load here"
fi

say "the user $ACCOUNT"
for group in "${DEVICE_GROUPS[@]}"; do
    if ! getent group "$group" >/dev/null; then
        run groupadd --system "$group"   # Raspberry Pi OS has them all; other systems may not
    fi
done
groups_list=$(IFS=,; echo "${DEVICE_GROUPS[*]-}")
if id -u "$ACCOUNT" >/dev/null 2>&1; then
    [ -z "$groups_list" ] || run usermod --append --groups "$groups_list" "$ACCOUNT"
else
    run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home --shell /usr/sbin/nologin \
        --comment "tablescore scorekeeper" ${groups_list:+--groups "$groups_list"} "$ACCOUNT"
fi

# The owner who ran `sudo install.sh` joins the service's group, to read the journal of scores
# (`tablescore history`) without sudo: the service keeps it readable by its group.
if [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
    run usermod --append --groups "$ACCOUNT" "$SUDO_USER"
    echo "$SUDO_USER may read the scores (tablescore history) from their next login"
fi

say "tablescore in $VENV"
if [ ! -x "$ROOT$VENV/bin/python" ]; then
    # --system-site-packages: picamera2 and libcamera come only as system packages
    run python3 -m venv --system-site-packages "$VENV"
fi
# Built from a fresh copy of the checkout's files, not from the checkout itself: pip would leave a root-owned
# build/ in the owner's clone, and a module deleted since an earlier build would linger there and be installed.
rm -rf "$ROOT$BUILD"
mkdir -p "$ROOT$BUILD"
tar -C "$SOURCE" --exclude=.git --exclude='.venv*' --exclude=./build --exclude=./dist --exclude='*.egg-info' \
    --exclude=__pycache__ --exclude='.*_cache' --exclude=.hypothesis --exclude=./demo-frames --exclude=./demo-out \
    -cf - . | tar -C "$ROOT$BUILD" -xf -
run "$VENV/bin/pip" install --upgrade --constraint "$SOURCE/systemd/constraints.txt" "$BUILD"
rm -rf "$ROOT$BUILD"
mkdir -p "$ROOT$(dirname "$COMMAND_LINK")"
ln -sfn "$VENV/bin/tablescore" "$ROOT$COMMAND_LINK"

if [ "$SERVER" = 1 ]; then
    install_club_server
    exit 0
fi

say "the configuration $CONFIG"
mkdir -p "$ROOT$CONFIG_DIR"
if [ -e "$ROOT$CONFIG" ]; then
    echo "kept: $CONFIG (the example is $SOURCE/systemd/tablescore.toml)"
else
    install -m 0644 "$SOURCE/systemd/tablescore.toml" "$ROOT$CONFIG"
    echo "wrote: $CONFIG: set the players, the game and the OLED's controller there"
fi

say "the services"
mkdir -p "$ROOT$UNIT_DIR"
for unit in "${UNITS[@]}"; do
    install -m 0644 "$SOURCE/systemd/$unit" "$ROOT$UNIT_DIR/$unit"
done
if [ "$CLUB" = 1 ]; then
    mkdir -p "$ROOT$CLUB_DROP_IN_DIR"
    install -m 0644 "$SOURCE/systemd/tablescore-club-table.conf" "$ROOT$CLUB_DROP_IN_DIR/club.conf"
    echo "wrote: $CLUB_DROP_IN_DIR/club.conf: the device may reach the club's broker ([club] in $CONFIG)"
else
    rm -f "$ROOT$CLUB_DROP_IN_DIR/club.conf"
fi
if [ "$KIOSK" = 1 ]; then
    chosen=tablescore-kiosk.service other=tablescore.service
else
    chosen=tablescore.service other=tablescore-kiosk.service
fi
run systemctl daemon-reload
run systemctl disable --now "$other"
run systemctl enable "$chosen"
state="enabled (it starts at boot)"
if [ "$START" = 1 ]; then
    run systemctl restart "$chosen"
    state="enabled and started"
fi

say "done"
echo "$chosen is $state: systemctl status $chosen; journalctl -u $chosen -f"
echo "the journal of scores: $STATE_DIR; if /dev/i2c-1 is missing, reboot once to turn I2C on"
