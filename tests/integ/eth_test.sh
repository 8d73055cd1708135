#!/usr/bin/env bash
# eth_test.sh [IPXLAB] - end to end on Ethernet: two network namespaces
# joined by a veth pair, both created here and removed on exit.
# Checks:
#  - `ipxlab listen`/`send --link eth:IFACE,frame=T` exchange a broadcast
#    and a unicast in each frame type (Ethernet_II, 802.3, 802.2, SNAP);
#  - a listener with frame=auto learns the type a SNAP sender uses, logs
#    it, and answers that sender's Novell ping in SNAP; a client with
#    frame=auto that hears nothing from a LAN of 802.2 stations finds no
#    server and says to name frame=802.2 (which finds it);
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
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=netns_pair.sh
. "$LIB_DIR/integ/netns_pair.sh"
use_build "${1:-}"
need_exe "$BIN"
make_tmp eth
netns_pair_up

addr_in() { grep -Eo 'listening on [0-9A-F]{8}:[0-9A-F]{12}:[0-9A-F]{4}' "$1" | head -n 1 | cut -d' ' -f3; }
start=$SECONDS
PCAPS=()

# --- one frame type at a time ------------------------------------------------
for f in ethernet_ii 802.3 802.2 snap; do
	"${A[@]}" timeout -k 2 10 "$BIN" listen 4545 --link "eth:$VA,frame=$f" -c 2 -t 8 \
		--pcap "$TMP/listen-$f.pcap" >"$TMP/listen-$f.out" 2>"$TMP/listen-$f.err" &
	L=$!
	PIDS+=($L)
	wait_for "$TMP/listen-$f.err" 'listening on' || fail "$f: listener starts" "$TMP/listen-$f.err"
	LADDR=$(addr_in "$TMP/listen-$f.err")
	printf 'bcast-%s\n' "$f" | "${B[@]}" timeout -k 2 8 "$BIN" send 00000000:FFFFFFFFFFFF:4545 \
		--link "eth:$VB,frame=$f" --pcap "$TMP/send-$f.pcap" 2>"$TMP/send-$f.err"
	printf 'ucast-%s\n' "$f" | "${B[@]}" timeout -k 2 8 "$BIN" send "$LADDR" \
		--link "eth:$VB,frame=$f" 2>>"$TMP/send-$f.err"
	wait "$L"
	rc=$?
	got=$(awk '{print $2}' "$TMP/listen-$f.out" | tr '\n' ' ')
	if [ $rc = 0 ] && [ "$got" = "bcast-$f ucast-$f " ]; then
		pass "$f: broadcast and unicast between namespaces"
	else
		fail "$f: broadcast and unicast between namespaces" "rc=$rc got '$got'" \
			"$TMP/listen-$f.err" "$TMP/send-$f.err"
	fi
	PCAPS+=("$TMP/listen-$f.pcap" "$TMP/send-$f.pcap")
done

# The frame type on the wire is the one asked for.
if command -v tshark >/dev/null 2>&1; then
	why=""
	for f in ethernet_ii 802.3 802.2 snap; do
		case $f in
		ethernet_ii) filt='eth.type == 0x8137' ;;
		802.3) filt='eth.len && !llc && ipx' ;;
		802.2) filt='llc.dsap == 0xe0 && ipx' ;;
		snap) filt='llc.dsap == 0xaa && llc.type == 0x8137' ;;
		esac
		n=$(frames "$TMP/send-$f.pcap" "$filt")
		all=$(frames "$TMP/send-$f.pcap" frame)
		[ "$n" -ge 1 ] && [ "$n" = "$all" ] || why="$why$f: $n of $all frames match '$filt'"$'\n'
	done
	[ -z "$why" ]
	check "tshark sees each frame type as asked" $? "${why%$'\n'}"
fi

# --- auto-detection -----------------------------------------------------------
"${A[@]}" timeout -k 2 12 "$BIN" listen 4545 --link "eth:$VA" -c 2 -t 10 \
	--pcap "$TMP/auto.pcap" >"$TMP/auto.out" 2>"$TMP/auto.err" &
L=$!
PIDS+=($L)
wait_for "$TMP/auto.err" 'listening on' || fail "auto: listener starts" "$TMP/auto.err"
LADDR=$(addr_in "$TMP/auto.err")
echo one | "${B[@]}" timeout -k 2 8 "$BIN" send 00000000:FFFFFFFFFFFF:4545 --link "eth:$VB,frame=snap" 2>"$TMP/auto-send.err"
"${B[@]}" timeout -k 2 8 "$BIN" ping "${LADDR%:*}" -c 1 -W 2 --link "eth:$VB,frame=snap" >"$TMP/auto-ping.out" 2>&1
prc=$?
echo two | "${B[@]}" timeout -k 2 8 "$BIN" send "$LADDR" --link "eth:$VB,frame=snap" 2>>"$TMP/auto-send.err"
wait "$L"
rc=$?
got=$(awk '{print $2}' "$TMP/auto.out" | tr '\n' ' ')
if [ $rc = 0 ] && [ "$got" = "one two " ] && grep -q 'frame=snap' "$TMP/auto.err"; then
	pass "auto: learns SNAP from the first frame and says so"
else
	fail "auto: learns SNAP from the first frame and says so" "rc=$rc got '$got'" "$TMP/auto.err"
fi
if [ $prc = 0 ] && grep -q ' 1 received' "$TMP/auto-ping.out"; then
	pass "auto: answers a SNAP-only station's ping in SNAP"
else
	fail "auto: answers a SNAP-only station's ping in SNAP" "$TMP/auto-ping.out"
fi
PCAPS+=("$TMP/auto.pcap")

# A client with frame=auto on a LAN of 802.2 stations that speak only when
# asked: it hears no IPX frame, finds no server, and says which types it
# tried and which to name; frame=802.2 finds the server.
"${A[@]}" timeout -k 2 20 "$BIN" advertise 4 FS802 451 --link "eth:$VA,frame=802.2" \
	>/dev/null 2>"$TMP/adv.err" &
PIDS+=($!)
ADV=$!
wait_for "$TMP/adv.err" 'advertis' 50
sleep 0.3	# (its first broadcast is over)
"${B[@]}" timeout -k 2 10 "$BIN" slist --link "eth:$VB,frame=auto" -W 1 >"$TMP/sl-auto.out" 2>"$TMP/sl-auto.err"
rc=$?
if [ $rc = 1 ] && grep -q "No file servers found" "$TMP/sl-auto.out" &&
	grep -q "ipxlab slist: $VB heard no IPX frame of any type in 1 s: frame=auto sent ethernet_ii and listened for ethernet_ii, 802.3, 802.2 and snap" "$TMP/sl-auto.err" &&
	grep -q "try --link eth:$VB,frame=802.2" "$TMP/sl-auto.err"; then
	pass "auto: finding no server on a silent 802.2 LAN, says which types it tried and to name frame=802.2"
else
	fail "auto: finding no server on a silent 802.2 LAN, says which types it tried and to name frame=802.2" \
		"rc=$rc" "$TMP/sl-auto.out" "$TMP/sl-auto.err" "$TMP/adv.err"
fi
"${B[@]}" timeout -k 2 10 "$BIN" slist --link "eth:$VB,frame=802.2" -W 1 >"$TMP/sl-822.out" 2>"$TMP/sl-822.err"
rc=$?
if [ $rc = 0 ] && grep -q "^FS802 " "$TMP/sl-822.out" && ! grep -q 'heard no IPX frame' "$TMP/sl-822.err"; then
	pass "auto: the same server found with frame=802.2 (and no hint)"
else
	fail "auto: the same server found with frame=802.2 (and no hint)" "rc=$rc" "$TMP/sl-822.out" "$TMP/sl-822.err"
fi
kill "$ADV" 2>/dev/null
wait "$ADV" 2>/dev/null

# --- the bridging hub ---------------------------------------------------------
bridge_run() { # NAME HUB-FRAME LAN-FRAME
	local name=$1 hubframe=$2 lanframe=$3 port=$((20000 + RANDOM % 20000))
	local H=127.0.0.1:$port hub lan tun
	"${A[@]}" "$BIN" hub --bind 127.0.0.1 --port "$port" --bridge "$VA" --frame "$hubframe" \
		--pcap "$TMP/hub-$name.pcap" >"$TMP/hub-$name.out" 2>"$TMP/hub-$name.err" &
	hub=$!
	PIDS+=($hub)
	( sleep 30; kill "$hub" 2>/dev/null ) &
	PIDS+=($!)
	if ! wait_for "$TMP/hub-$name.err" 'bridged to'; then
		fail "bridge $name: hub starts" "$TMP/hub-$name.err"
		return
	fi
	"${B[@]}" timeout -k 2 12 "$BIN" listen 4545 --link "eth:$VB,frame=$lanframe" -c 2 -t 10 \
		--pcap "$TMP/lan-$name.pcap" >"$TMP/lan-$name.out" 2>"$TMP/lan-$name.err" &
	lan=$!
	PIDS+=($lan)
	"${A[@]}" timeout -k 2 12 "$BIN" listen 4546 --hub "$H" -c 2 -t 10 \
		--pcap "$TMP/tun-$name.pcap" >"$TMP/tun-$name.out" 2>"$TMP/tun-$name.err" &
	tun=$!
	PIDS+=($tun)
	wait_for "$TMP/lan-$name.err" 'listening on' && wait_for "$TMP/tun-$name.err" 'listening on' ||
		fail "bridge $name: listeners start" "$TMP/lan-$name.err" "$TMP/tun-$name.err"
	local laddr taddr
	laddr=$(addr_in "$TMP/lan-$name.err")
	taddr=$(addr_in "$TMP/tun-$name.err")
	# The LAN side first, so that with --frame auto the hub learns the
	# LAN's type before it sends anything.
	echo "lan-bcast" | "${B[@]}" timeout -k 2 8 "$BIN" send 00000000:FFFFFFFFFFFF:4546 \
		--link "eth:$VB,frame=$lanframe" 2>"$TMP/send-$name.err"
	echo "lan-ucast" | "${B[@]}" timeout -k 2 8 "$BIN" send "$taddr" \
		--link "eth:$VB,frame=$lanframe" 2>>"$TMP/send-$name.err"
	echo "tun-bcast" | "${A[@]}" timeout -k 2 8 "$BIN" send 00000000:FFFFFFFFFFFF:4545 \
		--hub "$H" 2>>"$TMP/send-$name.err"
	echo "tun-ucast" | "${A[@]}" timeout -k 2 8 "$BIN" send "$laddr" \
		--hub "$H" --pcap "$TMP/tunsend-$name.pcap" 2>>"$TMP/send-$name.err"
	wait "$lan"
	local lrc=$?
	wait "$tun"
	local trc=$?
	local lgot tgot
	lgot=$(awk '{print $2}' "$TMP/lan-$name.out" | tr '\n' ' ')
	tgot=$(awk '{print $2}' "$TMP/tun-$name.out" | tr '\n' ' ')
	[ $lrc = 0 ] && [ "$lgot" = "tun-bcast tun-ucast " ] &&
		pass "bridge $name: tunnel client to Ethernet node, broadcast and unicast" ||
		fail "bridge $name: tunnel client to Ethernet node, broadcast and unicast" \
			"rc=$lrc got '$lgot'" "$TMP/lan-$name.err" "$TMP/send-$name.err"
	[ $trc = 0 ] && [ "$tgot" = "lan-bcast lan-ucast " ] &&
		pass "bridge $name: Ethernet node to tunnel client, broadcast and unicast" ||
		fail "bridge $name: Ethernet node to tunnel client, broadcast and unicast" \
			"rc=$trc got '$tgot'" "$TMP/tun-$name.err" "$TMP/hub-$name.err"
	kill -TERM "$hub" 2>/dev/null
	wait "$hub" 2>/dev/null
	if grep -Eq '^bridge_to_lan [1-9]' "$TMP/hub-$name.err" &&
		grep -Eq '^bridge_from_lan [1-9]' "$TMP/hub-$name.err"; then
		pass "bridge $name: the hub counts what it bridged"
	else
		fail "bridge $name: the hub counts what it bridged" "$TMP/hub-$name.err"
	fi
	PCAPS+=("$TMP/hub-$name.pcap" "$TMP/lan-$name.pcap" "$TMP/tun-$name.pcap" "$TMP/tunsend-$name.pcap")
}
bridge_run 8022 802.2 802.2
bridge_run auto auto ethernet_ii
grep -q 'frame=ethernet_ii' "$TMP/hub-auto.err" &&
	pass "bridge auto: the hub learns the LAN's frame type" ||
	fail "bridge auto: the hub learns the LAN's frame type" "$TMP/hub-auto.err"

# --- a router between a hub and the Ethernet segment --------------------------
port=$((20000 + RANDOM % 20000))
"${A[@]}" timeout -k 2 20 "$BIN" hub --bind 127.0.0.1 --port "$port" -q >/dev/null 2>&1 &
PIDS+=($!)
sleep 0.3
"${A[@]}" timeout -k 2 20 "$BIN" router --link "hub:127.0.0.1:$port,net=AA01" \
	--link "eth:$VA,net=AA02,frame=802.2" --rip-period 1 --pcap "$TMP/router.pcap" \
	>"$TMP/router.out" 2>"$TMP/router.err" &
R=$!
PIDS+=($R)
"${A[@]}" timeout -k 2 12 "$BIN" listen 4547 --hub "127.0.0.1:$port" -c 1 -t 10 \
	>"$TMP/rtun.out" 2>"$TMP/rtun.err" &
L=$!
PIDS+=($L)
wait_for "$TMP/router.err" 'routing between' && wait_for "$TMP/rtun.err" 'listening on' ||
	fail "router: starts on a hub and an Ethernet link" "$TMP/router.err" "$TMP/rtun.err"
tnode=$(addr_in "$TMP/rtun.err" | cut -d: -f2)
"${B[@]}" timeout -k 2 8 "$BIN" ping "0000AA01:$tnode" -c 1 -W 2 --link "eth:$VB,frame=802.2" \
	>"$TMP/rping.out" 2>&1
prc=$?
echo across | "${B[@]}" timeout -k 2 8 "$BIN" send "0000AA01:$tnode:4547" \
	--link "eth:$VB,frame=802.2" 2>"$TMP/rsend.err"
wait "$L"
rc=$?
[ $prc = 0 ] && grep -q 'hops=1' "$TMP/rping.out" &&
	pass "router: an Ethernet node pings a tunnel client one hop away" ||
	fail "router: an Ethernet node pings a tunnel client one hop away" "$TMP/rping.out" "$TMP/router.err"
[ $rc = 0 ] && grep -q '^0000AA02:[0-9A-F]\{12\}:[0-9A-F]\{4\} across$' "$TMP/rtun.out" &&
	pass "router: a datagram from network AA02 (Ethernet) reaches AA01 (tunnel)" ||
	fail "router: a datagram from network AA02 (Ethernet) reaches AA01 (tunnel)" "rc=$rc" \
		"$TMP/rtun.out" "$TMP/rsend.err"
kill -TERM "$R" 2>/dev/null
wait "$R" 2>/dev/null
PCAPS+=("$TMP/router.pcap")

# --- ipxlab capture -----------------------------------------------------------
"${A[@]}" timeout -k 2 10 "$BIN" capture --link "eth:$VA" -c 2 -s 8 -w "$TMP/capture-eth.pcap" \
	>"$TMP/capture-eth.out" 2>"$TMP/capture-eth.err" &
C=$!
PIDS+=($C)
sleep 0.5
# Between B's node and a node that is not A's: A sees it only promiscuously.
# Three at once: -c 2 prints two even when they come in one batch.
printf 'x\nx\nx\n' | "${B[@]}" timeout -k 2 8 "$BIN" send 00000000:020000000099:4545 --link "eth:$VB,frame=802.2" 2>/dev/null
echo "y" | "${B[@]}" timeout -k 2 8 "$BIN" send 00000000:FFFFFFFFFFFF:4545 --link "eth:$VB,frame=802.2" 2>/dev/null
wait "$C"
rc=$?
if [ $rc = 0 ] && grep -q '802.2 .* -> 00000000:020000000099:4545 type 4 len 31 data 1' "$TMP/capture-eth.out" &&
	[ "$(grep -c . "$TMP/capture-eth.out")" = 2 ]; then
	pass "capture --link eth: prints the segment's frames, not only its own"
else
	fail "capture --link eth: prints the segment's frames, not only its own" "rc=$rc" \
		"$TMP/capture-eth.out" "$TMP/capture-eth.err"
fi
PCAPS+=("$TMP/capture-eth.pcap")

port=$((20000 + RANDOM % 20000))
"${A[@]}" timeout -k 2 15 "$BIN" hub --bind 127.0.0.1 --port "$port" -q >/dev/null 2>&1 &
PIDS+=($!)
sleep 0.3
"${A[@]}" timeout -k 2 10 "$BIN" capture --hub "127.0.0.1:$port" -s 3 -w "$TMP/capture-hub.pcap" \
	>"$TMP/capture-hub.out" 2>"$TMP/capture-hub.err" &
C=$!
PIDS+=($C)
sleep 0.5
"${A[@]}" timeout -k 2 8 "$BIN" routes --hub "127.0.0.1:$port" -W 0.3 >/dev/null 2>&1
wait "$C"
# Its own joining is not shown (nor counted for -c).
if ! grep -q 'tunnel registration' "$TMP/capture-hub.out" &&
	grep -q 'RIP request' "$TMP/capture-hub.out"; then
	pass "capture --hub: a RIP broadcast, decoded, and not its own registration"
else
	fail "capture --hub: a RIP broadcast, decoded, and not its own registration" "$TMP/capture-hub.out" "$TMP/capture-hub.err"
fi
PCAPS+=("$TMP/capture-hub.pcap")

# --- tshark reads every capture -----------------------------------------------
if ! command -v tshark >/dev/null 2>&1; then
	echo "SKIP: tshark not installed: pcap files not checked"
else
	bad=0
	total=0
	for p in "${PCAPS[@]}"; do
		if [ ! -s "$p" ]; then
			echo "missing or empty: ${p#"$TMP"/}" >>"$TMP/pcaps.bad"
			bad=$((bad + 1))
		elif capture_counts "$p" ipx; then
			total=$((total + FRAMES))
		else
			echo "${p#"$TMP"/}: $FRAMES frames, $AS_PROTO IPX, $WORSE malformed or warned, $EXPERT_BAD expert error/warning sections" >>"$TMP/pcaps.bad"
			tshark -r "$p" -Y "!ipx || $BAD_FRAMES" 2>/dev/null | head -n 3 | sed 's/^/    /' >>"$TMP/pcaps.bad"
			bad=$((bad + 1))
		fi
	done
	[ $bad = 0 ]
	check "tshark reads ${#PCAPS[@]} pcap files ($total frames): all IPX, none malformed, no warnings" $? \
		"$TMP/pcaps.bad" "$TMP/tshark.err"
fi

echo "eth test took $((SECONDS - start)) s"
finish
