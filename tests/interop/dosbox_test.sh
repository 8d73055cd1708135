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
#   and `ipxlab bridge tunnel:` against that server must give up, exit 1,
#   saying it never answered the bridge-port announcement.
# Phase 3 (two `ipxlab hub`s joined by `ipxlab bridge tunnel: tunnel:`):
#   dos5 on hub A: IPXTEST R; dos6 on hub B: IPXTEST S to dos5, across.

set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=dosbox_common.sh
. "$LIB_DIR/interop/dosbox_common.sh"
use_build "${1:-}"
need_exe "$BIN"

interop_init
T0=$(date +%s)

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
            >"$TMP/$name.out" 2>"$TMP/$name.err" ) &
    IT_PID["$name"]=$!
}

# ------------------------------------------------------ phase 1: ipxlab hub --
P1=$(pick_port)
HUB=127.0.0.1:$P1
bg_start hub 90 "$BIN" hub --bind 127.0.0.1 --port "$P1"
if ! wait_for_file "$TMP/hub.err" 5 'listening on'; then
    fail hub_start "$TMP/hub.err"
fi

# ipxlab listener for the DOS -> ipxlab direction
bg_start listen1 40 "$BIN" listen 5002 --hub "$HUB" --count 1 --timeout 30
wait_for_file "$TMP/listen1.err" 8 'listening on'
L1=$(listen_addr "$TMP/listen1.err")
L1NODE=$(echo "$L1" | cut -d: -f2)

# dos1: receives from ipxlab, then stays alive as ping responder
dosbox_start dos1 60 \
    "IPXNET CONNECT 127.0.0.1 $P1 > CONN.TXT" \
    "IPXTEST R 5001 1 25 > R.OUT" \
    "IF ERRORLEVEL 1 ECHO fail> R.ERR" \
    "IPXTEST W 25"
wait_for_file "$TMP/dos1/ADDR.TXT" 15 ':'
D1NODE=$(node_of "$TMP/dos1/ADDR.TXT")

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
D2NODE=$(node_of "$TMP/dos2/ADDR.TXT")
D1PORT=$((16#${D1NODE:8:4}0 / 16))  # 0 if unknown

# a. registration with the hub and IPXNET PING through it
[ -n "$D1NODE" ] && [ -n "$D2NODE" ] &&
    has "$TMP/hub.err" "join .*node $D1NODE" &&
    has "$TMP/hub.err" "join .*node $D2NODE"
check hub_join_logged $? "$TMP/hub.err" "$TMP/dos1/CONN.TXT" "$TMP/dos2/CONN.TXT" \
    "$TMP/dos1/ADDR.TXT" "$TMP/dos2/ADDR.TXT"
has "$TMP/dos2/PING.TXT" "Response from 127\.0\.0\.1, port $D1PORT "
check ipxnet_ping_via_hub $? "$TMP/dos2/PING.TXT" "$TMP/dos2/CONN.TXT" "$TMP/hub.err"

# c. data both ways between DOS programs and ipxlab nodes through the hub
wait_for_file "$TMP/dos1/RECV.TXT" 10 'ipxlab to dos1 via hub'
has "$TMP/dos1/RECV.TXT" '^00000000:7F000001[0-9A-F]{4}:[0-9A-F]{4} ipxlab to dos1 via hub$'
check hub_ipxlab_to_dos $? "$TMP/dos1/RECV.TXT" "$TMP/dos1/R.OUT" "$TMP/send1.err" "$TMP/hub.err"
bg_wait listen1
LRC=$?
[ $LRC -eq 0 ] && [ -n "$D2NODE" ] &&
    has "$TMP/listen1.out" "^00000000:$D2NODE:[0-9A-F]{4} dos2 to ipxlab via hub\$"
check hub_dos_to_ipxlab $? "$TMP/listen1.out" "$TMP/listen1.err" "$TMP/dos2/S.OUT" "$TMP/hub.err"

# d. ipxlab ping gets answers from DOSBox clients (dos1 is still alive)
if bg_running dos1; then
    timeout 20 "$BIN" ping --hub "$HUB" -c 3 >"$TMP/ping1.out" 2>"$TMP/ping1.err"
    PRC=$?
else
    PRC=99
    echo "dos1 exited before the ping test" >"$TMP/ping1.err"
fi
[ $PRC -eq 0 ] && ping_has_node "$TMP/ping1.out" "$D1NODE"
check ipxlab_ping_dosbox_via_hub $? "$TMP/ping1.out" "$TMP/ping1.err" "$TMP/hub.err"

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
wait_for_file "$TMP/dos3/ADDR.TXT" 15 ':'
D3NODE=$(node_of "$TMP/dos3/ADDR.TXT")
# A bridge port needs an ipxlab hub: DOSBox's server takes the
# registration and never answers the announcement (10 s).
bg_start nobridge 20 "$BIN" bridge "tunnel:$SRV" "tunnel:$SRV"

bg_start listen2 40 "$BIN" listen 6002 --hub "$SRV" --count 1 --timeout 20
wait_for_file "$TMP/listen2.err" 8 'listening on'
L2=$(listen_addr "$TMP/listen2.err")
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
wait_for_file "$TMP/dos3/RECV.TXT" 10 'via dosbox server'
has "$TMP/dos3/RECV.TXT" '^00000000:7F000001[0-9A-F]{4}:[0-9A-F]{4} ipxlab to dos3 via dosbox server$'
check dosbox_server_ipxlab_to_dos $? "$TMP/dos3/RECV.TXT" "$TMP/dos3/R.OUT" "$TMP/dos3/START.TXT" "$TMP/send2.err"
dosbox_wait dos4
D4NODE=$(node_of "$TMP/dos4/ADDR.TXT")
bg_wait listen2
LRC=$?
[ $LRC -eq 0 ] && [ -n "$D4NODE" ] &&
    has "$TMP/listen2.out" "^00000000:$D4NODE:[0-9A-F]{4} dos4 to ipxlab via dosbox server\$"
check dosbox_server_dos_to_ipxlab $? "$TMP/listen2.out" "$TMP/listen2.err" "$TMP/dos4/CONN.TXT" "$TMP/dos4/S.OUT"
if bg_running dos3; then
    timeout 20 "$BIN" ping --hub "$SRV" -c 2 >"$TMP/ping2.out" 2>"$TMP/ping2.err"
    PRC=$?
else
    PRC=99
    echo "dos3 exited before the ping test" >"$TMP/ping2.err"
fi
[ $PRC -eq 0 ] && ping_has_node "$TMP/ping2.out" "$D3NODE"
check dosbox_server_ipxlab_ping $? "$TMP/ping2.out" "$TMP/ping2.err"
bg_wait nobridge
[ $? -eq 1 ] && has "$TMP/nobridge.err" "never answered the bridge-port announcement"
check dosbox_server_refuses_bridge_port_cleanly $? "$TMP/nobridge.err"

bg_stop dos3
bg_stop send2

# ------------------------- phase 3: DOSBox across `ipxlab bridge tunnel:` --
P3=$(pick_port)
P4=$(pick_port)
[ "$P4" = "$P3" ] && P4=$((P3 + 1))
bg_start hubA 90 "$BIN" hub --bind 127.0.0.1 --port "$P3"
bg_start hubB 90 "$BIN" hub --bind 127.0.0.1 --port "$P4"
wait_for_file "$TMP/hubA.err" 5 'listening on'
wait_for_file "$TMP/hubB.err" 5 'listening on'
bg_start bridge3 90 "$BIN" bridge "tunnel:127.0.0.1:$P3" "tunnel:127.0.0.1:$P4" --hold 10ms
wait_for_file "$TMP/bridge3.err" 10 'side B is a bridge port'
wait_for_file "$TMP/bridge3.err" 10 'side A is a bridge port'
dosbox_start dos5 60 \
    "IPXNET CONNECT 127.0.0.1 $P3 > CONN.TXT" \
    "IPXTEST R 7001 1 25 > R.OUT" \
    "IF ERRORLEVEL 1 ECHO fail> R.ERR"
wait_for_file "$TMP/dos5/ADDR.TXT" 15 ':'
D5NODE=$(node_of "$TMP/dos5/ADDR.TXT")
dosbox_start dos6 40 \
    "IPXNET CONNECT 127.0.0.1 $P4 > CONN.TXT" \
    "IPXTEST A > A.OUT" \
    "IPXTEST S ${D5NODE:-000000000000} 7001 dos6 to dos5 across the bridge > S.OUT" \
    "IF ERRORLEVEL 1 ECHO fail> S.ERR"
dosbox_wait dos6
D6NODE=$(node_of "$TMP/dos6/ADDR.TXT")
wait_for_file "$TMP/dos5/RECV.TXT" 10 'across the bridge'
[ -n "$D6NODE" ] &&
    has "$TMP/dos5/RECV.TXT" "^00000000:$D6NODE:[0-9A-F]{4} dos6 to dos5 across the bridge\$"
check dos_to_dos_across_bridge_tunnel $? "$TMP/dos5/RECV.TXT" "$TMP/dos5/R.OUT" "$TMP/dos6/S.OUT" \
    "$TMP/bridge3.err" "$TMP/hubA.err" "$TMP/hubB.err"
bg_stop dos5
bg_stop bridge3
bg_stop hubA
bg_stop hubB

echo "interop: $(($(date +%s) - T0)) s"
finish
