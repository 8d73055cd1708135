# netns_pair.sh - sourced by the tests that need two network namespaces
# joined by a veth pair (tests/integ/eth_test.sh,
# tests/interop/dosbox_bridge_test.sh).
#
# netns_pair_up: creates namespaces $NA and $NB with loopback up and a veth
#   pair $VA (in NA) <-> $VB (in NB), both up; sets the arrays A and B to
#   the command prefix that runs a program in each (arrays, not functions:
#   a background job's $! is then the program itself). On failure prints
#   "SKIP: why" and returns 1 (the caller exits 77).
# netns_pair_down: removes both namespaces (and so the pair); safe to call
#   twice or after a failed netns_pair_up.

netns_pair_up() {
	local id=$$ err
	NA=ipxlabA$id NB=ipxlabB$id VA=ipxa$id VB=ipxb$id
	A=(ip netns exec "$NA")
	B=(ip netns exec "$NB")
	if [ "$(id -u)" != 0 ]; then
		echo "SKIP: needs root to create network namespaces and a veth pair"
		return 1
	fi
	if ! command -v ip >/dev/null 2>&1; then
		echo "SKIP: ip (iproute2) not installed"
		return 1
	fi
	if ! err=$({ ip netns add "$NA" && ip netns add "$NB" &&
		ip link add "$VA" type veth peer name "$VB" &&
		ip link set "$VA" netns "$NA" && ip link set "$VB" netns "$NB" &&
		ip -n "$NA" link set lo up && ip -n "$NA" link set "$VA" up &&
		ip -n "$NB" link set lo up && ip -n "$NB" link set "$VB" up; } 2>&1); then
		echo "SKIP: cannot create network namespaces and a veth pair: ${err%%$'\n'*}"
		netns_pair_down
		return 1
	fi
}

netns_pair_down() {
	ip netns del "$NA" 2>/dev/null
	ip netns del "$NB" 2>/dev/null
	return 0
}
