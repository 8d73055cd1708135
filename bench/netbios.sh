#!/usr/bin/env bash
# bench/netbios.sh [OPTIONS] - the NetBIOS benchmark (docs/netbios.md).
#
# Runs `ipxlab bench netbios OPTIONS` after saying where it runs: NetBIOS
# datagram and session message rates beside IPX datagrams and IPX round
# trips, measured in the same run over one hub on loopback, with the round
# trip that bounds the stop-and-wait session. Options pass through
# (-s SECONDS, --size N, --window N, --json). Builds ipxlab first unless
# IPXLAB names a binary. Exit status: that of ipxlab.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ipxlab=${IPXLAB:-}
if [ -z "$ipxlab" ]; then
	make -s -C "$root" all >&2
	ipxlab=$root/build/ipxlab
fi
[ -x "$ipxlab" ] || { echo "bench/netbios.sh: $ipxlab is not executable" >&2; exit 1; }
case " $* " in
*" --json "*) ;;
*)
	cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
	printf '# %s, %s, %s CPUs (%s), load %s\n' "$(date -u +%FT%TZ)" \
		"$(uname -r)" "$(nproc)" "${cpu:-CPU unknown}" \
		"$(cut -d' ' -f1 /proc/loadavg)"
	;;
esac
exec "$ipxlab" bench netbios "$@"
