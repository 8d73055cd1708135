# shellcheck shell=bash disable=SC2034  # (A and B are for its callers)
# netns_pair.sh - sourced, after tests/lib.sh, by the tests that need two
# network namespaces joined by a veth pair (tests/integ/eth_test.sh,
# eth_link_test.sh, tests/interop/dosbox_bridge_test.sh).
#
# netns_pair_up: creates namespaces $NA and $NB with loopback up and a veth
#   pair $VA (in NA) <-> $VB (in NB), both up, removed again at exit; sets
#   the arrays A and B to the command prefix that runs a program in each
#   (arrays, not functions: a background job's $! is then the program
#   itself). Where that cannot be done (not root, no ip(8), a container
#   without CAP_SYS_ADMIN) the test is skipped, saying why.

netns_pair_up() {
	local id=$$ err
	NA=ipxlabA$id NB=ipxlabB$id VA=ipxa$id VB=ipxb$id
	A=(ip netns exec "$NA")
	B=(ip netns exec "$NB")
	[ "$(id -u)" = 0 ] || skip "needs root to create network namespaces and a veth pair"
	need_cmd ip
	on_exit netns_pair_down
	err=$({ ip netns add "$NA" && ip netns add "$NB" &&
		ip link add "$VA" type veth peer name "$VB" &&
		ip link set "$VA" netns "$NA" && ip link set "$VB" netns "$NB" &&
		ip -n "$NA" link set lo up && ip -n "$NA" link set "$VA" up &&
		ip -n "$NB" link set lo up && ip -n "$NB" link set "$VB" up; } 2>&1) ||
		skip "cannot create network namespaces and a veth pair: ${err%%$'\n'*}"
}

# netns_pair_down: removes both namespaces (and so the pair)
netns_pair_down() {
	ip netns del "$NA" 2>/dev/null
	ip netns del "$NB" 2>/dev/null
	ip link del "$VA" 2>/dev/null
	return 0
}
