#!/usr/bin/env bash
# dosbox_test.sh - interop test: ipxlab against real DOSBox 0.74 IPX emulation.
#
# Usage: tests/interop/dosbox_test.sh [path/to/ipxlab]   (default build/ipxlab)
# Env:   IT_KEEP=1 keeps the temp dir (configs, DOSBox logs, result files).
#
# Runs headless DOSBox instances (IPXNET + tests/interop/ipxtest.asm) and
# ipxlab processes, all on 127.0.0.1 with random high UDP ports, each bounded
# by `timeout`. Prints PASS:/FAIL: per check and a final "N passed, N failed"
# line; exits 1 if any check failed, 77 (SKIP) if dosbox/nasm/ipxlab missing.
#
# Phase 1 (server = `ipxlab hub`), checks a, c, d:
#   dos1: IPXNET CONNECT; IPXTEST R (receives from `ipxlab send`); IPXTEST W
#   dos2: IPXNET CONNECT; IPXNET PING > PING.TXT; IPXTEST S to `ipxlab listen`
#   then `ipxlab ping` must get replies from dos1.
# Phase 2 (server = DOSBox's own IPXNET STARTSERVER), check b:
#   dos3: IPXNET STARTSERVER; IPXTEST R (from `ipxlab send`); IPXTEST W
#   dos4: IPXNET CONNECT; IPXTEST S to `ipxlab listen`

set -u

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=dosbox_common.sh
. "$HERE/dosbox_common.sh"

BIN=${1:-$REPO/build/ipxlab}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
[ -x "$BIN" ] || skip "ipxlab binary not found at $BIN (run make first)"

interop_init
T0=$(date +%s)

PASSED=0
FAILED=0
pass() { echo "PASS: $1"; PASSED=$((PASSED + 1)); }
fail() {
    local name=$1; shift
    echo "FAIL: $name"
    local f
    for f in "$@"; do
        if [ -f "$f" ]; then
            echo "  --- ${f#"$IT_TMP"/}:"
            tr -d '\r' <"$f" | tail -n 15 | sed 's/^/  | /'
        else
            echo "  --- ${f#"$IT_TMP"/}: (missing)"
        fi
    done
    FAILED=$((FAILED + 1))
}
# result NAME STATUS EVIDENCE-FILES...: PASS if STATUS is 0, else FAIL and
# show the tail of each evidence file
result() {
    local name=$1 rc=$2; shift 2
    if [ "$rc" -eq 0 ]; then pass "$name"; else fail "$name" "$@"; fi
}

# node_of FILE: the 12-hex node of "NNNNNNNN:XXXXXXXXXXXX" in an ADDR.TXT
node_of() { tr -d '\r\n' 2>/dev/null <"$1" | cut -d: -f2; }
# listen_addr ERRFILE: the address from "listening on N:N:S"
listen_addr() {
    grep -Eo 'listening on [0-9A-Fa-f]{8}:[0-9A-Fa-f]{12}:[0-9A-Fa-f]{4}' "$1" 2>/dev/null \
        | head -n 1 | cut -d' ' -f3 | tr a-f A-F
}
# has FILE REGEX: case-insensitive extended grep, CRs removed
has() { tr -d '\r' 2>/dev/null <"$1" | grep -Eiq "$2"; }
# ping_has_node FILE NODE: a "reply from" line naming NODE (any separators)
ping_has_node() {
    tr -d '\r' 2>/dev/null <"$1" | grep -i 'reply from' | tr -d ':.-' | grep -iq "$2"
}
# send_lines NAME TEXT ADDR HUB: in the background, `ipxlab send` the same
# line 3 times, 0.3 s apart (one datagram per line; copes with loss)
send_lines() {
    local name=$1 text=$2 addr=$3 hub=$4
    ( for _ in 1 2 3; do printf '%s\n' "$text"; sleep 0.3; done \
        | timeout -k 2 10 "$BIN" send "$addr" --hub "$hub" \
            >"$IT_TMP/$name.out" 2>"$IT_TMP/$name.err" ) &
    # shellcheck disable=SC2034  # IT_PID lives in dosbox_common.sh
    IT_PID["$name"]=$!
}

# ------------------------------------------------------ phase 1: ipxlab hub --
P1=$(pick_port)
HUB=127.0.0.1:$P1
bg_start hub 90 "$BIN" hub --bind 127.0.0.1 --port "$P1"
if ! wait_for_file "$IT_TMP/hub.err" 5 'listening on'; then
    fail hub_start "$IT_TMP/hub.err"
fi

# ipxlab listener for the DOS -> ipxlab direction
bg_start listen1 40 "$BIN" listen 5002 --hub "$HUB" --count 1 --timeout 30
wait_for_file "$IT_TMP/listen1.err" 8 'listening on'
L1=$(listen_addr "$IT_TMP/listen1.err")
L1NODE=$(echo "$L1" | cut -d: -f2)

# dos1: receives from ipxlab, then stays alive as ping responder
dosbox_start dos1 60 \
    "IPXNET CONNECT 127.0.0.1 $P1 > CONN.TXT" \
    "IPXTEST R 5001 1 25 > R.OUT" \
    "IF ERRORLEVEL 1 ECHO fail> R.ERR" \
    "IPXTEST W 25"
wait_for_file "$IT_TMP/dos1/ADDR.TXT" 15 ':'
D1NODE=$(node_of "$IT_TMP/dos1/ADDR.TXT")

# dos2: IPXNET PING (dos1 must answer), then sends to the ipxlab listener
dosbox_start dos2 40 \
    "IPXNET CONNECT 127.0.0.1 $P1 > CONN.TXT" \
    "IPXTEST A > A.OUT" \
    "IPXNET PING > PING.TXT" \
    "IPXTEST S ${L1NODE:-000000000000} 5002 dos2 to ipxlab via hub > S.OUT" \
    "IF ERRORLEVEL 1 ECHO fail> S.ERR"

# ipxlab -> dos1
if [ -n "$D1NODE" ]; then
    send_lines send1 "ipxlab to dos1 via hub" "00000000:$D1NODE:5001" "$HUB"
fi

dosbox_wait dos2
D2NODE=$(node_of "$IT_TMP/dos2/ADDR.TXT")
D1PORT=$((16#${D1NODE:8:4}0 / 16))  # 0 if unknown

# a. registration with the hub and IPXNET PING through it
[ -n "$D1NODE" ] && [ -n "$D2NODE" ] &&
    has "$IT_TMP/hub.err" "join .*node $D1NODE" &&
    has "$IT_TMP/hub.err" "join .*node $D2NODE"
result hub_join_logged $? "$IT_TMP/hub.err" "$IT_TMP/dos1/CONN.TXT" "$IT_TMP/dos2/CONN.TXT" \
    "$IT_TMP/dos1/ADDR.TXT" "$IT_TMP/dos2/ADDR.TXT"
has "$IT_TMP/dos2/PING.TXT" "Response from 127\.0\.0\.1, port $D1PORT "
result ipxnet_ping_via_hub $? "$IT_TMP/dos2/PING.TXT" "$IT_TMP/dos2/CONN.TXT" "$IT_TMP/hub.err"

# c. data both ways between DOS programs and ipxlab nodes through the hub
wait_for_file "$IT_TMP/dos1/RECV.TXT" 10 'ipxlab to dos1 via hub'
has "$IT_TMP/dos1/RECV.TXT" '^00000000:7F000001[0-9A-F]{4}:[0-9A-F]{4} ipxlab to dos1 via hub$'
result hub_ipxlab_to_dos $? "$IT_TMP/dos1/RECV.TXT" "$IT_TMP/dos1/R.OUT" "$IT_TMP/send1.err" "$IT_TMP/hub.err"
bg_wait listen1
LRC=$?
[ $LRC -eq 0 ] && [ -n "$D2NODE" ] &&
    has "$IT_TMP/listen1.out" "^00000000:$D2NODE:[0-9A-F]{4} dos2 to ipxlab via hub\$"
result hub_dos_to_ipxlab $? "$IT_TMP/listen1.out" "$IT_TMP/listen1.err" "$IT_TMP/dos2/S.OUT" "$IT_TMP/hub.err"

# d. ipxlab ping gets answers from DOSBox clients (dos1 is still alive)
if bg_running dos1; then
    timeout 20 "$BIN" ping --hub "$HUB" -c 3 >"$IT_TMP/ping1.out" 2>"$IT_TMP/ping1.err"
    PRC=$?
else
    PRC=99
    echo "dos1 exited before the ping test" >"$IT_TMP/ping1.err"
fi
[ $PRC -eq 0 ] && ping_has_node "$IT_TMP/ping1.out" "$D1NODE"
result ipxlab_ping_dosbox_via_hub $? "$IT_TMP/ping1.out" "$IT_TMP/ping1.err" "$IT_TMP/hub.err"

bg_stop dos1
bg_stop send1
bg_stop hub

# ---------------------------------------- phase 2: DOSBox IPXNET STARTSERVER --
P2=$(pick_port)
[ "$P2" = "$P1" ] && P2=$((P1 + 1))
SRV=127.0.0.1:$P2

# dos3: the server; receives from ipxlab, then stays alive
dosbox_start dos3 60 \
    "IPXNET STARTSERVER $P2 > START.TXT" \
    "IPXTEST R 6001 1 25 > R.OUT" \
    "IF ERRORLEVEL 1 ECHO fail> R.ERR" \
    "IPXTEST W 25"
wait_for_file "$IT_TMP/dos3/ADDR.TXT" 15 ':'
D3NODE=$(node_of "$IT_TMP/dos3/ADDR.TXT")

bg_start listen2 40 "$BIN" listen 6002 --hub "$SRV" --count 1 --timeout 20
wait_for_file "$IT_TMP/listen2.err" 8 'listening on'
L2=$(listen_addr "$IT_TMP/listen2.err")
L2NODE=$(echo "$L2" | cut -d: -f2)

if [ -n "$D3NODE" ]; then
    send_lines send2 "ipxlab to dos3 via dosbox server" "00000000:$D3NODE:6001" "$SRV"
fi
dosbox_start dos4 40 \
    "IPXNET CONNECT 127.0.0.1 $P2 > CONN.TXT" \
    "IPXTEST A > A.OUT" \
    "IPXTEST S ${L2NODE:-000000000000} 6002 dos4 to ipxlab via dosbox server > S.OUT" \
    "IF ERRORLEVEL 1 ECHO fail> S.ERR"

# b. ipxlab nodes against DOSBox's own server
wait_for_file "$IT_TMP/dos3/RECV.TXT" 10 'via dosbox server'
has "$IT_TMP/dos3/RECV.TXT" '^00000000:7F000001[0-9A-F]{4}:[0-9A-F]{4} ipxlab to dos3 via dosbox server$'
result dosbox_server_ipxlab_to_dos $? "$IT_TMP/dos3/RECV.TXT" "$IT_TMP/dos3/R.OUT" "$IT_TMP/dos3/START.TXT" "$IT_TMP/send2.err"
dosbox_wait dos4
D4NODE=$(node_of "$IT_TMP/dos4/ADDR.TXT")
bg_wait listen2
LRC=$?
[ $LRC -eq 0 ] && [ -n "$D4NODE" ] &&
    has "$IT_TMP/listen2.out" "^00000000:$D4NODE:[0-9A-F]{4} dos4 to ipxlab via dosbox server\$"
result dosbox_server_dos_to_ipxlab $? "$IT_TMP/listen2.out" "$IT_TMP/listen2.err" "$IT_TMP/dos4/CONN.TXT" "$IT_TMP/dos4/S.OUT"
if bg_running dos3; then
    timeout 20 "$BIN" ping --hub "$SRV" -c 2 >"$IT_TMP/ping2.out" 2>"$IT_TMP/ping2.err"
    PRC=$?
else
    PRC=99
    echo "dos3 exited before the ping test" >"$IT_TMP/ping2.err"
fi
[ $PRC -eq 0 ] && ping_has_node "$IT_TMP/ping2.out" "$D3NODE"
result dosbox_server_ipxlab_ping $? "$IT_TMP/ping2.out" "$IT_TMP/ping2.err"

bg_stop dos3
bg_stop send2

echo "interop: $(($(date +%s) - T0)) s"
echo "dosbox: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
