#!/usr/bin/env bash
# eth_test.sh [IPXLAB] - end to end on Ethernet: two network namespaces
# joined by a veth pair, both created here and removed on exit.
# Checks:
#  - `ipxlab listen`/`send --link eth:IFACE,frame=T` exchange a broadcast
#    and a unicast in each frame type (Ethernet_II, 802.3, 802.2, SNAP);
#  - a listener with frame=auto learns the type a SNAP sender uses, logs
#    it, and answers that sender's Novell ping in SNAP;
#  - `ipxlab hub --bridge`: a tunnel client (an ipxlab node speaking the
#    DOSBox protocol) and an Ethernet node exchange unicasts and broadcasts
#    both ways, with the hub's frame type set, and learnt (--frame auto);
#  - `ipxlab router` between a hub (network AA01) and the segment (AA02):
#    an Ethernet node pings a tunnel client and sends it a datagram;
#  - `ipxlab capture --link eth:` prints the segment's IPX frames (its own
#    node not involved: promiscuous) and `capture --hub` the tunnel's;
#  - every --pcap / -w file of those runs is read by tshark: every frame
#    IPX, none malformed, no expert info of severity warning or error.
# Exits 77 (SKIP) without root, ip(8) or network namespaces. Every process
# is bounded by timeout and killed on exit; prints PASS:/FAIL: per check.
set -u
BIN=${1:-build/ipxlab}
[ -d "$BIN" ] && BIN=$BIN/ipxlab
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
[ -x "$BIN" ] || { echo "SKIP: $BIN not built"; exit 77; }
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=netns_pair.sh
. "$HERE/netns_pair.sh"

T=$(mktemp -d /tmp/ipxlab-eth.XXXXXX)
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	netns_pair_down
	if [ "${IT_KEEP:-0}" = 1 ]; then echo "kept $T"; else rm -rf "$T"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
netns_pair_up || exit 77

failures=0
passes=0
pass() { echo "PASS: $1"; passes=$((passes + 1)); }
fail() {
	echo "FAIL: $1"
	shift
	local f
	for f in "$@"; do
		if [ -f "$f" ]; then tail -n 15 "$f" | sed 's/^/  | /'; else echo "  $f"; fi
	done
	failures=$((failures + 1))
}
wait_for() { # file pattern [tenths]
	local i
	for ((i = 0; i < ${3:-50}; i++)); do
		grep -Eq "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
addr_in() { grep -Eo 'listening on [0-9A-F]{8}:[0-9A-F]{12}:[0-9A-F]{4}' "$1" | head -n 1 | cut -d' ' -f3; }
start=$SECONDS
PCAPS=()

# --- one frame type at a time ------------------------------------------------
for f in ethernet_ii 802.3 802.2 snap; do
	"${A[@]}" timeout -k 2 10 "$BIN" listen 4545 --link "eth:$VA,frame=$f" -c 2 -t 8 \
		--pcap "$T/listen-$f.pcap" >"$T/listen-$f.out" 2>"$T/listen-$f.err" &
	L=$!
	PIDS+=($L)
	wait_for "$T/listen-$f.err" 'listening on' || fail "$f: listener starts" "$T/listen-$f.err"
	LADDR=$(addr_in "$T/listen-$f.err")
	printf 'bcast-%s\n' "$f" | "${B[@]}" timeout -k 2 8 "$BIN" send 00000000:FFFFFFFFFFFF:4545 \
		--link "eth:$VB,frame=$f" --pcap "$T/send-$f.pcap" 2>"$T/send-$f.err"
	printf 'ucast-%s\n' "$f" | "${B[@]}" timeout -k 2 8 "$BIN" send "$LADDR" \
		--link "eth:$VB,frame=$f" 2>>"$T/send-$f.err"
	wait "$L"
	rc=$?
	got=$(awk '{print $2}' "$T/listen-$f.out" | tr '\n' ' ')
	if [ $rc = 0 ] && [ "$got" = "bcast-$f ucast-$f " ]; then
		pass "$f: broadcast and unicast between namespaces"
	else
		fail "$f: broadcast and unicast between namespaces" "rc=$rc got '$got'" \
			"$T/listen-$f.err" "$T/send-$f.err"
	fi
	PCAPS+=("$T/listen-$f.pcap" "$T/send-$f.pcap")
done

# The frame type on the wire is the one asked for.
if command -v tshark >/dev/null 2>&1; then
	ok=1
	for f in ethernet_ii 802.3 802.2 snap; do
		case $f in
		ethernet_ii) filt='eth.type == 0x8137' ;;
		802.3) filt='eth.len && !llc && ipx' ;;
		802.2) filt='llc.dsap == 0xe0 && ipx' ;;
		snap) filt='llc.dsap == 0xaa && llc.type == 0x8137' ;;
		esac
		n=$(tshark -r "$T/send-$f.pcap" -Y "$filt" -T fields -e frame.number 2>/dev/null | grep -c .)
		all=$(tshark -r "$T/send-$f.pcap" -T fields -e frame.number 2>/dev/null | grep -c .)
		if [ "$n" -lt 1 ] || [ "$n" != "$all" ]; then
			ok=0
			echo "  $f: $n of $all frames match '$filt'"
		fi
	done
	[ $ok = 1 ] && pass "tshark sees each frame type as asked" || fail "tshark sees each frame type as asked"
fi

# --- auto-detection -----------------------------------------------------------
"${A[@]}" timeout -k 2 12 "$BIN" listen 4545 --link "eth:$VA" -c 2 -t 10 \
	--pcap "$T/auto.pcap" >"$T/auto.out" 2>"$T/auto.err" &
L=$!
PIDS+=($L)
wait_for "$T/auto.err" 'listening on' || fail "auto: listener starts" "$T/auto.err"
LADDR=$(addr_in "$T/auto.err")
echo one | "${B[@]}" timeout -k 2 8 "$BIN" send 00000000:FFFFFFFFFFFF:4545 --link "eth:$VB,frame=snap" 2>"$T/auto-send.err"
"${B[@]}" timeout -k 2 8 "$BIN" ping "${LADDR%:*}" -c 1 -W 2 --link "eth:$VB,frame=snap" >"$T/auto-ping.out" 2>&1
prc=$?
echo two | "${B[@]}" timeout -k 2 8 "$BIN" send "$LADDR" --link "eth:$VB,frame=snap" 2>>"$T/auto-send.err"
wait "$L"
rc=$?
got=$(awk '{print $2}' "$T/auto.out" | tr '\n' ' ')
if [ $rc = 0 ] && [ "$got" = "one two " ] && grep -q 'frame=snap' "$T/auto.err"; then
	pass "auto: learns SNAP from the first frame and says so"
else
	fail "auto: learns SNAP from the first frame and says so" "rc=$rc got '$got'" "$T/auto.err"
fi
if [ $prc = 0 ] && grep -q ' 1 received' "$T/auto-ping.out"; then
	pass "auto: answers a SNAP-only station's ping in SNAP"
else
	fail "auto: answers a SNAP-only station's ping in SNAP" "$T/auto-ping.out"
fi
PCAPS+=("$T/auto.pcap")

# --- the bridging hub ---------------------------------------------------------
bridge_run() { # NAME HUB-FRAME LAN-FRAME
	local name=$1 hubframe=$2 lanframe=$3 port=$((20000 + RANDOM % 20000))
	local H=127.0.0.1:$port hub lan tun
	"${A[@]}" "$BIN" hub --bind 127.0.0.1 --port "$port" --bridge "$VA" --frame "$hubframe" \
		--pcap "$T/hub-$name.pcap" >"$T/hub-$name.out" 2>"$T/hub-$name.err" &
	hub=$!
	PIDS+=($hub)
	( sleep 30; kill "$hub" 2>/dev/null ) &
	PIDS+=($!)
	if ! wait_for "$T/hub-$name.err" 'bridged to'; then
		fail "bridge $name: hub starts" "$T/hub-$name.err"
		return
	fi
	"${B[@]}" timeout -k 2 12 "$BIN" listen 4545 --link "eth:$VB,frame=$lanframe" -c 2 -t 10 \
		--pcap "$T/lan-$name.pcap" >"$T/lan-$name.out" 2>"$T/lan-$name.err" &
	lan=$!
	PIDS+=($lan)
	"${A[@]}" timeout -k 2 12 "$BIN" listen 4546 --hub "$H" -c 2 -t 10 \
		--pcap "$T/tun-$name.pcap" >"$T/tun-$name.out" 2>"$T/tun-$name.err" &
	tun=$!
	PIDS+=($tun)
	wait_for "$T/lan-$name.err" 'listening on' && wait_for "$T/tun-$name.err" 'listening on' ||
		fail "bridge $name: listeners start" "$T/lan-$name.err" "$T/tun-$name.err"
	local laddr taddr
	laddr=$(addr_in "$T/lan-$name.err")
	taddr=$(addr_in "$T/tun-$name.err")
	# The LAN side first, so that with --frame auto the hub learns the
	# LAN's type before it sends anything.
	echo "lan-bcast" | "${B[@]}" timeout -k 2 8 "$BIN" send 00000000:FFFFFFFFFFFF:4546 \
		--link "eth:$VB,frame=$lanframe" 2>"$T/send-$name.err"
	echo "lan-ucast" | "${B[@]}" timeout -k 2 8 "$BIN" send "$taddr" \
		--link "eth:$VB,frame=$lanframe" 2>>"$T/send-$name.err"
	echo "tun-bcast" | "${A[@]}" timeout -k 2 8 "$BIN" send 00000000:FFFFFFFFFFFF:4545 \
		--hub "$H" 2>>"$T/send-$name.err"
	echo "tun-ucast" | "${A[@]}" timeout -k 2 8 "$BIN" send "$laddr" \
		--hub "$H" --pcap "$T/tunsend-$name.pcap" 2>>"$T/send-$name.err"
	wait "$lan"
	local lrc=$?
	wait "$tun"
	local trc=$?
	local lgot tgot
	lgot=$(awk '{print $2}' "$T/lan-$name.out" | tr '\n' ' ')
	tgot=$(awk '{print $2}' "$T/tun-$name.out" | tr '\n' ' ')
	[ $lrc = 0 ] && [ "$lgot" = "tun-bcast tun-ucast " ] &&
		pass "bridge $name: tunnel client to Ethernet node, broadcast and unicast" ||
		fail "bridge $name: tunnel client to Ethernet node, broadcast and unicast" \
			"rc=$lrc got '$lgot'" "$T/lan-$name.err" "$T/send-$name.err"
	[ $trc = 0 ] && [ "$tgot" = "lan-bcast lan-ucast " ] &&
		pass "bridge $name: Ethernet node to tunnel client, broadcast and unicast" ||
		fail "bridge $name: Ethernet node to tunnel client, broadcast and unicast" \
			"rc=$trc got '$tgot'" "$T/tun-$name.err" "$T/hub-$name.err"
	kill -TERM "$hub" 2>/dev/null
	wait "$hub" 2>/dev/null
	if grep -Eq '^bridge_to_lan [1-9]' "$T/hub-$name.err" &&
		grep -Eq '^bridge_from_lan [1-9]' "$T/hub-$name.err"; then
		pass "bridge $name: the hub counts what it bridged"
	else
		fail "bridge $name: the hub counts what it bridged" "$T/hub-$name.err"
	fi
	PCAPS+=("$T/hub-$name.pcap" "$T/lan-$name.pcap" "$T/tun-$name.pcap" "$T/tunsend-$name.pcap")
}
bridge_run 8022 802.2 802.2
bridge_run auto auto ethernet_ii
grep -q 'frame=ethernet_ii' "$T/hub-auto.err" &&
	pass "bridge auto: the hub learns the LAN's frame type" ||
	fail "bridge auto: the hub learns the LAN's frame type" "$T/hub-auto.err"

# --- a router between a hub and the Ethernet segment --------------------------
port=$((20000 + RANDOM % 20000))
"${A[@]}" timeout -k 2 20 "$BIN" hub --bind 127.0.0.1 --port "$port" -q >/dev/null 2>&1 &
PIDS+=($!)
sleep 0.3
"${A[@]}" timeout -k 2 20 "$BIN" router --link "hub:127.0.0.1:$port,net=AA01" \
	--link "eth:$VA,net=AA02,frame=802.2" --rip-period 1 --pcap "$T/router.pcap" \
	>"$T/router.out" 2>"$T/router.err" &
R=$!
PIDS+=($R)
"${A[@]}" timeout -k 2 12 "$BIN" listen 4547 --hub "127.0.0.1:$port" -c 1 -t 10 \
	>"$T/rtun.out" 2>"$T/rtun.err" &
L=$!
PIDS+=($L)
wait_for "$T/router.err" 'routing between' && wait_for "$T/rtun.err" 'listening on' ||
	fail "router: starts on a hub and an Ethernet link" "$T/router.err" "$T/rtun.err"
tnode=$(addr_in "$T/rtun.err" | cut -d: -f2)
"${B[@]}" timeout -k 2 8 "$BIN" ping "0000AA01:$tnode" -c 1 -W 2 --link "eth:$VB,frame=802.2" \
	>"$T/rping.out" 2>&1
prc=$?
echo across | "${B[@]}" timeout -k 2 8 "$BIN" send "0000AA01:$tnode:4547" \
	--link "eth:$VB,frame=802.2" 2>"$T/rsend.err"
wait "$L"
rc=$?
[ $prc = 0 ] && grep -q 'hops=1' "$T/rping.out" &&
	pass "router: an Ethernet node pings a tunnel client one hop away" ||
	fail "router: an Ethernet node pings a tunnel client one hop away" "$T/rping.out" "$T/router.err"
[ $rc = 0 ] && grep -q '^0000AA02:[0-9A-F]\{12\}:[0-9A-F]\{4\} across$' "$T/rtun.out" &&
	pass "router: a datagram from network AA02 (Ethernet) reaches AA01 (tunnel)" ||
	fail "router: a datagram from network AA02 (Ethernet) reaches AA01 (tunnel)" "rc=$rc" \
		"$T/rtun.out" "$T/rsend.err"
kill -TERM "$R" 2>/dev/null
wait "$R" 2>/dev/null
PCAPS+=("$T/router.pcap")

# --- ipxlab capture -----------------------------------------------------------
"${A[@]}" timeout -k 2 10 "$BIN" capture --link "eth:$VA" -c 2 -s 8 -w "$T/capture-eth.pcap" \
	>"$T/capture-eth.out" 2>"$T/capture-eth.err" &
C=$!
PIDS+=($C)
sleep 0.5
# Between B's node and a node that is not A's: A sees it only promiscuously.
echo "x" | "${B[@]}" timeout -k 2 8 "$BIN" send 00000000:020000000099:4545 --link "eth:$VB,frame=802.2" 2>/dev/null
echo "y" | "${B[@]}" timeout -k 2 8 "$BIN" send 00000000:FFFFFFFFFFFF:4545 --link "eth:$VB,frame=802.2" 2>/dev/null
wait "$C"
rc=$?
if [ $rc = 0 ] && grep -q '802.2 .* -> 00000000:020000000099:4545 type 4 len 31 data 1' "$T/capture-eth.out" &&
	[ "$(grep -c . "$T/capture-eth.out")" = 2 ]; then
	pass "capture --link eth: prints the segment's frames, not only its own"
else
	fail "capture --link eth: prints the segment's frames, not only its own" "rc=$rc" \
		"$T/capture-eth.out" "$T/capture-eth.err"
fi
PCAPS+=("$T/capture-eth.pcap")

port=$((20000 + RANDOM % 20000))
"${A[@]}" timeout -k 2 15 "$BIN" hub --bind 127.0.0.1 --port "$port" -q >/dev/null 2>&1 &
PIDS+=($!)
sleep 0.3
"${A[@]}" timeout -k 2 10 "$BIN" capture --hub "127.0.0.1:$port" -s 3 -w "$T/capture-hub.pcap" \
	>"$T/capture-hub.out" 2>"$T/capture-hub.err" &
C=$!
PIDS+=($C)
sleep 0.5
"${A[@]}" timeout -k 2 8 "$BIN" routes --hub "127.0.0.1:$port" -W 0.3 >/dev/null 2>&1
wait "$C"
if grep -q 'tunnel registration answer' "$T/capture-hub.out" &&
	grep -q 'RIP request' "$T/capture-hub.out"; then
	pass "capture --hub: registration and a RIP broadcast, decoded"
else
	fail "capture --hub: registration and a RIP broadcast, decoded" "$T/capture-hub.out" "$T/capture-hub.err"
fi
PCAPS+=("$T/capture-hub.pcap")

# --- tshark reads every capture -----------------------------------------------
if ! command -v tshark >/dev/null 2>&1; then
	echo "SKIP: tshark not installed: pcap files not checked"
else
	bad=0
	frames=0
	for p in "${PCAPS[@]}"; do
		if [ ! -s "$p" ]; then
			echo "  missing or empty: ${p#"$T"/}"
			bad=$((bad + 1))
			continue
		fi
		n=$(tshark -r "$p" -T fields -e frame.number 2>>"$T/tshark.err" | grep -c .)
		frames=$((frames + n))
		ipx=$(tshark -r "$p" -Y ipx -T fields -e frame.number 2>>"$T/tshark.err" | grep -c .)
		# PI_WARN is 0x00600000 and PI_ERROR 0x00800000.
		worse=$(tshark -r "$p" -Y '_ws.malformed || _ws.expert.severity >= 0x00600000' \
			-T fields -e frame.number 2>>"$T/tshark.err" | grep -c .)
		if [ "$n" -lt 1 ] || [ "$ipx" != "$n" ] || [ "$worse" != 0 ] ||
			tshark -r "$p" -q -z expert 2>/dev/null | grep -Eq '^(Errors|Warns) \('; then
			echo "  ${p#"$T"/}: $n frames, $ipx IPX, $worse malformed or warned"
			tshark -r "$p" -Y '!ipx || _ws.malformed || _ws.expert.severity >= 0x00600000' 2>/dev/null | head -n 3 | sed 's/^/    /'
			bad=$((bad + 1))
		fi
	done
	[ $bad = 0 ] && pass "tshark reads ${#PCAPS[@]} pcap files ($frames frames): all IPX, none malformed, no warnings" ||
		fail "tshark reads ${#PCAPS[@]} pcap files: all IPX, none malformed, no warnings" "$T/tshark.err"
fi

echo "eth test took $((SECONDS - start)) s"
echo "$passes passed, $failures failed"
[ $failures = 0 ]
