#!/usr/bin/env bash
# eth_link_test.sh - the Ethernet link (src/link/eth.c) between two network
# namespaces joined by a veth pair, one IPX node in each
# (BUILD/tools/eth_pair, tests/interop/eth_pair.c).
#
# Usage: tests/integ/eth_link_test.sh [path/to/ipxlab]   (default build/ipxlab)
# Env:   IT_KEEP=1 keeps the temp dir (captures, process output).
#
# Shows, in that order:
#   - in each of the four frame types, datagrams of 1, 100, 546 bytes and
#     the type's largest go from A to B and come back (B echoes them), each
#     with exactly its bytes; the 1-byte one is a 31-byte IPX packet in a
#     60-byte padded frame and arrives with its true length
#   - B on frame=auto learns each type A uses, says so, and answers in it
#   - a mismatch (A snap and 802.2, B ethernet_ii; and B auto after it learnt
#     802.2) is counted as wrong_frame_type and logged once per type with
#     the setting to use
#   - tshark reads the pcap files both nodes wrote through the link's
#     capture tap: every frame is IPX in the frame type that was set, none
#     is malformed or carries an expert warning
# Prints PASS:/FAIL: per check and "N passed, N failed"; exits 1 if any
# failed, 77 (SKIP) when namespaces or veth pairs cannot be created (not
# root, no ip(8), a container without CAP_SYS_ADMIN). The namespaces are
# removed on exit; every process is bounded with timeout.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=netns_pair.sh
. "$LIB_DIR/integ/netns_pair.sh"
use_build "${1:-}"
TOOL=$TOOLS/eth_pair
need_exe "$TOOL"
make_tmp eth-link
netns_pair_up
MACB=$(ip -n "$NB" -br link show "$VB" | awk '{print $3}' | tr -d :)

# stat FILE NAME: a counter from the node's closing "stats" line
stat() {
	awk -v k="$2" '$1 == "stats" {
		for (i = 2; i <= NF; i++) if (index($i, k "=") == 1) v = substr($i, length(k) + 2)
	} END { print v }' "$1"
}

# echo_b TAG FRAME SECONDS: start B's echo node in the background
echo_b() {
	timeout -k 2 $(($3 + 5)) "${B[@]}" "$TOOL" "$VB" "$2" echo \
		--seconds "$3" --pcap "$TMP/$1-b.pcap" \
		>"$TMP/$1-b.out" 2>"$TMP/$1-b.err" &
	BPID=$!
	for _ in $(seq 50); do
		grep -q '^ready' "$TMP/$1-b.out" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}
# stop_b: end B's node (SIGTERM: it prints its stats) and wait for it
stop_b() {
	kill -TERM "$BPID" 2>/dev/null
	wait "$BPID" 2>/dev/null
}
# run_a TAG FRAME ARGS...: run A's node to the end
run_a() {
	local tag=$1 frame=$2
	shift 2
	timeout -k 2 20 "${A[@]}" "$TOOL" "$VA" "$frame" "$@" \
		--pcap "$TMP/$tag-a.pcap" >"$TMP/$tag-a.out" 2>"$TMP/$tag-a.err"
}

T0=$(date +%s)
TYPES="ethernet_ii 802.3 802.2 snap"

# ---- each frame type, both ways ----
for t in $TYPES; do
	if ! echo_b "$t" "$t" 10; then
		fail "$t: node B starts" "$TMP/$t-b.err"
		continue
	fi
	run_a "$t" "$t" ping "$MACB"
	rc=$?
	stop_b
	max=$(sed -n 's/^ready .* mtu=\([0-9]*\)/\1/p' "$TMP/$t-a.out")
	oks=$(grep -c '^ok ' "$TMP/$t-a.out")
	echoes=$(grep -c '^echo ' "$TMP/$t-b.out")
	[ "$rc" -eq 0 ] && [ "$oks" -eq 4 ] && [ "$echoes" -eq 4 ] &&
		[ "$(stat "$TMP/$t-b.out" rx)" = 4 ] && [ "$(stat "$TMP/$t-a.out" rx)" = 4 ]
	check "$t: datagrams of 1, 100, 546 and $((max - 30)) bytes A -> B -> A, intact" $? \
		"$TMP/$t-a.out" "$TMP/$t-a.err" "$TMP/$t-b.out" "$TMP/$t-b.err"
	grep -q '^echo 1 bytes from' "$TMP/$t-b.out" && grep -q '^ok 1$' "$TMP/$t-a.out"
	check "$t: a 31-byte IPX packet (60-byte padded frame) arrives as 31 bytes, both ways" $? \
		"$TMP/$t-a.out" "$TMP/$t-b.out"
	drops=0
	for f in "$TMP/$t-a.out" "$TMP/$t-b.out"; do
		for d in frame_short not_ipx bad_type_length bad_ipx_length \
			wrong_frame_type looped_back other_host frame_too_long; do
			v=$(stat "$f" "$d")
			[ "${v:-x}" = 0 ] || drops=1
		done
	done
	check "$t: nothing dropped on either side" "$drops" "$TMP/$t-a.out" "$TMP/$t-b.out"
done

# ---- auto-detection ----
for t in $TYPES; do
	tag=auto-$t
	if ! echo_b "$tag" auto 10; then
		fail "auto: node B starts" "$TMP/$tag-b.err"
		continue
	fi
	run_a "$tag" "$t" ping "$MACB" --sizes 1,100
	rc=$?
	stop_b
	[ "$rc" -eq 0 ] && [ "$(stat "$TMP/$tag-b.out" frame)" = "$t" ] &&
		grep -q "learnt from the first IPX frame.*uses frame=$t now" "$TMP/$tag-b.err" &&
		grep -q "frame=auto" "$TMP/$tag-b.out"
	check "auto: B learns $t from A's first frame, logs it and answers in it" $? \
		"$TMP/$tag-a.out" "$TMP/$tag-b.out" "$TMP/$tag-b.err"
done

# ---- mismatch: counted, logged once per type with the advice ----
if echo_b mismatch ethernet_ii 10; then
	run_a mismatch-snap snap send "$MACB" 5
	run_a mismatch-8022 802.2 send "$MACB" 3
	run_a mismatch-8022b 802.2 send "$MACB" 2
	stop_b
	e=$TMP/mismatch-b.err
	[ "$(stat "$TMP/mismatch-b.out" wrong_frame_type)" = 10 ] &&
		[ "$(stat "$TMP/mismatch-b.out" rx)" = 0 ]
	check "mismatch: 10 frames in snap and 802.2 to an ethernet_ii link counted as wrong_frame_type" $? \
		"$TMP/mismatch-b.out"
	[ "$(grep -c 'the LAN uses Ethernet_SNAP frames.*this link is set to ethernet_ii: use frame=snap' "$e")" = 1 ] &&
		[ "$(grep -c 'the LAN uses Ethernet_802.2 frames.*this link is set to ethernet_ii: use frame=802.2' "$e")" = 1 ] &&
		[ "$(grep -c 'the LAN uses' "$e")" = 2 ]
	check "mismatch: logged once per frame type, with the setting to use" $? "$e"
else
	fail "mismatch: node B starts" "$TMP/mismatch-b.err"
fi
if echo_b learnt auto 10; then
	run_a learnt-8022 802.2 ping "$MACB" --sizes 1
	rc=$?
	run_a learnt-ii ethernet_ii send "$MACB" 4
	stop_b
	[ "$rc" -eq 0 ] && [ "$(stat "$TMP/learnt-b.out" wrong_frame_type)" = 4 ] &&
		[ "$(grep -c 'the LAN uses Ethernet_II frames.*this link is learnt 802.2: use frame=ethernet_ii' "$TMP/learnt-b.err")" = 1 ]
	check "mismatch after learning 802.2: Ethernet_II frames counted and logged once" $? \
		"$TMP/learnt-b.out" "$TMP/learnt-b.err"
else
	fail "learnt: node B starts" "$TMP/learnt-b.err"
fi

# ---- tshark reads the captures ----
if ! command -v tshark >/dev/null 2>&1; then
	echo "(tshark not installed: capture checks skipped)"
else
	declare -A want=(
		[ethernet_ii]='eth.type == 0x8137'
		[802.3]='eth.len && !llc && ipx.checksum == 0xffff'
		[802.2]='llc.dsap == 0xe0 && llc.ssap == 0xe0'
		[snap]='llc.dsap == 0xaa && llc.oui == 0 && llc.type == 0x8137'
	)
	for t in $TYPES; do
		for side in a b; do
			cap=$TMP/$t-$side.pcap
			capture_counts "$cap" "ipx && ${want[$t]}" && [ "$FRAMES" -eq 8 ]
			check "tshark: $t capture of node ${side^^}: $AS_PROTO of $FRAMES frames IPX in $t framing, $WORSE malformed or warned" $? \
				"$cap.expert" "$TMP/tshark.err"
		done
		n=$(frames "$TMP/$t-a.pcap" 'frame.len == 60 && ipx.len == 31')
		[ "$n" -eq 2 ]
		check "tshark: $t: the short packet is a 60-byte frame with IPX length 31 (sent and received: $n)" $?
	done
fi

echo "eth link test took $(($(date +%s) - T0)) s"
finish
