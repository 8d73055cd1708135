# shellcheck shell=bash
# dosbox_common.sh - helpers for the DOSBox interop tests (sourced, not run).
#
# Sourced after tests/lib.sh (skip, TMP, on_exit). Provides:
#   interop_init            check tools (SKIP if missing), make the temp dir
#                           $TMP, build IPXTEST.COM, probe that DOSBox runs
#                           headless; at exit everything started here is killed
#   dosbox_start NAME SECS LINE...
#                           start DOSBox in the background with drive C: =
#                           $TMP/NAME (holding IPXTEST.COM) and the given
#                           [autoexec] lines (an EXIT is appended); bounded by
#                           `timeout SECS`; PID in IT_PID[NAME]
#   dosbox_wait NAME        wait for that DOSBox to exit (returns its status)
#   bg_start NAME SECS CMD...  run any command in the background under
#                           `timeout`, stdout/stderr to $TMP/NAME.out/.err
#   bg_wait NAME / bg_stop NAME
#   wait_for_file FILE SECS [REGEX]  poll until FILE exists (and matches)
#   pick_port               print a free-looking high UDP port
#   node_of FILE            the node of the address IPXTEST wrote to FILE
#   listen_addr FILE        the address in `ipxlab listen`'s "listening on"
#
# Everything binds to 127.0.0.1 (DOSBox's own IPXNET STARTSERVER binds the
# wildcard address; nothing but loopback traffic is sent).

IT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
IT_DOSBOX_WRAP=()
declare -A IT_PID=()

# Kill one process started by us (its timeout wrapper and the child).
it_kill() {
    local pid=$1
    [ -n "$pid" ] || return 0
    if kill -0 "$pid" 2>/dev/null; then
        pkill -TERM -P "$pid" 2>/dev/null
        kill -TERM "$pid" 2>/dev/null
        for _ in 1 2 3 4 5 6 7 8 9 10; do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        pkill -KILL -P "$pid" 2>/dev/null
        kill -KILL "$pid" 2>/dev/null
    fi
    wait "$pid" 2>/dev/null
    return 0
}

it_cleanup() {
    local name
    for name in "${!IT_PID[@]}"; do
        it_kill "${IT_PID[$name]}"
    done
    IT_PID=()
}

interop_init() {
    need_cmd dosbox nasm timeout
    make_tmp interop
    on_exit it_cleanup
    mkdir -p "$TMP/home"

    nasm -f bin -o "$TMP/IPXTEST.COM" "$IT_DIR/ipxtest.asm" \
        || { echo "FAIL: nasm could not build ipxtest.asm"; exit 1; }

    # DOSBox 0.74 runs with SDL's dummy drivers; fall back to Xvfb if not.
    local wrap
    for wrap in "" "xvfb-run -a"; do
        if [ -n "$wrap" ] && ! command -v xvfb-run >/dev/null 2>&1; then
            continue
        fi
        # shellcheck disable=SC2206
        IT_DOSBOX_WRAP=($wrap)
        dosbox_start probe 20 "ECHO ok> PROBE.TXT"
        dosbox_wait probe
        if grep -q ok "$TMP/probe/PROBE.TXT" 2>/dev/null; then
            return 0
        fi
    done
    skip "dosbox does not run headless here (see $TMP/probe.log)"
}

# it_conf NAME: write $TMP/NAME.conf with drive C: = $TMP/NAME
it_conf() {
    local name=$1; shift
    {
        cat <<EOF
[sdl]
fullscreen=false
output=surface
autolock=false
waitonerror=false
[dosbox]
machine=svga_s3
memsize=4
[render]
frameskip=10
aspect=false
scaler=none
[cpu]
core=normal
cputype=auto
cycles=fixed 4000
[mixer]
nosound=true
[sblaster]
sbtype=none
oplmode=none
[gus]
gus=false
[speaker]
pcspeaker=false
tandy=off
disney=false
[midi]
mpu401=none
mididevice=none
[joystick]
joysticktype=none
[serial]
serial1=disabled
serial2=disabled
serial3=disabled
serial4=disabled
[dos]
xms=false
ems=false
umb=false
[ipx]
ipx=true
[autoexec]
@ECHO OFF
MOUNT C "$TMP/$name"
C:
EOF
        local l
        for l in "$@"; do
            printf '%s\n' "$l"
        done
        echo "EXIT"
    } >"$TMP/$name.conf"
}

dosbox_start() {
    local name=$1 secs=$2; shift 2
    rm -rf "${TMP:?}/$name"
    mkdir -p "$TMP/$name"
    cp "$TMP/IPXTEST.COM" "$TMP/$name/IPXTEST.COM"
    it_conf "$name" "$@"
    ( cd "$TMP" && exec env HOME="$TMP/home" SDL_VIDEODRIVER=dummy \
        SDL_AUDIODRIVER=dummy "${IT_DOSBOX_WRAP[@]}" \
        timeout -k 2 "$secs" dosbox -conf "$TMP/$name.conf" \
        >"$TMP/$name.log" 2>&1 </dev/null ) &
    IT_PID[$name]=$!
}

dosbox_wait() { bg_wait "$1"; }

bg_start() {
    local name=$1 secs=$2; shift 2
    ( exec timeout -k 2 "$secs" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" </dev/null ) &
    IT_PID[$name]=$!
}

# bg_start_in NAME SECS INPUTFILE CMD...: like bg_start with stdin from a file
bg_start_in() {
    local name=$1 secs=$2 input=$3; shift 3
    ( exec timeout -k 2 "$secs" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" <"$input" ) &
    IT_PID[$name]=$!
}

bg_wait() {
    local name=$1 pid=${IT_PID[$1]} rc
    [ -n "$pid" ] || return 127
    wait "$pid"; rc=$?
    unset "IT_PID[$name]"
    return $rc
}

bg_stop() {
    local name=$1
    it_kill "${IT_PID[$name]}"
    unset "IT_PID[$name]"
}

bg_running() {
    local pid=${IT_PID[$1]}
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

wait_for_file() {
    local file=$1 secs=$2 re=${3:-} i
    for ((i = 0; i < secs * 10; i++)); do
        if [ -s "$file" ] && { [ -z "$re" ] || grep -Eq "$re" "$file"; }; then
            return 0
        fi
        sleep 0.1
    done
    return 1
}

# A random high port that nothing seems to use (UDP). Collisions with other
# programs are unlikely; the tests fail loudly if one happens.
pick_port() {
    local p i
    for i in 1 2 3 4 5 6 7 8 9 10; do
        p=$((20000 + (RANDOM * 7 + i) % 40000))
        if command -v ss >/dev/null 2>&1; then
            ss -Hlun "sport = :$p" 2>/dev/null | grep -q . && continue
        fi
        echo "$p"
        return 0
    done
    echo "$p"
}

# node_of FILE: the 12-hex node of "NNNNNNNN:XXXXXXXXXXXX" in an ADDR.TXT
node_of() { tr -d '\r\n' 2>/dev/null <"$1" | cut -d: -f2; }
# listen_addr ERRFILE: the address from "listening on N:N:S"
listen_addr() {
    grep -Eo 'listening on [0-9A-Fa-f]{8}:[0-9A-Fa-f]{12}:[0-9A-Fa-f]{4}' "$1" 2>/dev/null \
        | head -n 1 | cut -d' ' -f3 | tr a-f A-F
}
