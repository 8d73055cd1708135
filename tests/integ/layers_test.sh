#!/usr/bin/env bash
# layers_test.sh [IGNORED] - the layering of docs/design.md, checked on the
# sources: every folder under src/ has its place in the order below, every
# header in include/ipxlab/ (and priv/) its module, and no file includes a
# header of a higher layer; the public headers include no priv/ header;
# nothing outside src/cli includes a src/cli header, and a module's own
# headers (src/X/*.h) are included from src/X only. No binary is needed
# (the argument run-tests.sh passes is ignored). Prints PASS:/FAIL: per
# check; exits nonzero if any check failed.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
need_cmd python3
make_tmp layers

check_tree() {
	python3 - "$1" <<'PY'
import os, re, sys

root = sys.argv[1]
# The layers, lowest first (docs/design.md); a file may include its own
# layer and the ones below. preload is apart: the stack's codec only.
RANK = {'base': 0, 'link': 1, 'ipx': 2,
        'spx': 3, 'netbios': 3, 'rip': 3, 'sap': 3, 'diag': 3,
        'ncp': 4, 'hub': 5, 'emu': 5, 'fileserver': 5, 'stack': 5, 'mount': 5,
        'capture': 6, 'bench': 7, 'cli': 8,
        # ipx.h is the IPX addresses and the header codec (src/ipx/addr.c,
        # header.c): the frame codec and the DOSBox tunnel read IPX headers
        # too, so link may include it; the node (node.h) is above link.
        'ipx-wire': 1}
OWNER = {
    'base': 'buf bytes clock config err log loop priv/drops',
    'link': 'frame link link_eth link_mem link_profile link_udp '
            'priv/link_medium machine host priv/machine_files',
    'ipx-wire': 'ipx', 'ipx': 'node', 'spx': 'spx', 'netbios': 'netbios nb_stream',
    'rip': 'rip', 'sap': 'sap', 'diag': 'diag ping',
    'ncp': 'ncp ncp_client ncp_crypt ncp_burst', 'fileserver': 'ncp_server',
    'hub': 'hub hub_port bridge', 'emu': 'wan', 'stack': 'stack stack_proto',
    'mount': 'mount',
    'capture': 'capture analyze hub_capture priv/pcap',
    'bench': 'bench bench_b1 bench_harness bench_ncp bench_sim bench_stat '
             'bench_sys bench_wan bench_work',
}
HDR = {'ipxlab/%s.h' % n: m for m, ns in OWNER.items() for n in ns.split()}


def owner_of(h):
    # Every bench_*.h is the benchmark library's.
    if h.startswith('ipxlab/bench_'):
        return 'bench'
    return HDR.get(h)

INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
problems = {'folders': [], 'headers': [], 'upward': [], 'priv': [],
            'cli': [], 'private': []}

def includes(path):
    with open(path, errors='replace') as f:
        return INC.findall(f.read())

src = os.path.join(root, 'src')
for d in sorted(os.listdir(src)):
    if os.path.isdir(os.path.join(src, d)) and d not in RANK and d != 'preload':
        problems['folders'].append('src/%s has no place in the layers' % d)
inc_dir = os.path.join(root, 'include')
for dp, _, fs in os.walk(os.path.join(inc_dir, 'ipxlab')):
    for f in fs:
        h = os.path.relpath(os.path.join(dp, f), inc_dir)
        if f.endswith('.h') and not owner_of(h):
            problems['headers'].append('%s belongs to no module' % h)

def check(path, mod, public):
    rel = os.path.relpath(path, root)
    for h in includes(path):
        if h.startswith('ipxlab/'):
            owner = owner_of(h)
            if owner and RANK[owner] > RANK[mod]:
                problems['upward'].append('%s (%s) includes %s (%s)'
                                          % (rel, mod, h, owner))
            if public and h.startswith('ipxlab/priv/'):
                problems['priv'].append('%s includes %s' % (rel, h))
        elif '/' in h:
            other = os.path.normpath(os.path.join(os.path.dirname(rel), h))
            parts = other.split(os.sep)
            if parts[:2] == ['src', 'cli'] and mod != 'cli':
                problems['cli'].append('%s includes %s' % (rel, h))
            elif parts[0] == 'src' and parts[1] != mod:
                problems['private'].append('%s includes %s' % (rel, other))

for dp, _, fs in os.walk(src):
    mod = os.path.relpath(dp, src).split(os.sep)[0]
    if mod not in RANK:
        continue
    for f in fs:
        if f.endswith(('.c', '.h')):
            check(os.path.join(dp, f), mod, False)
for dp, _, fs in os.walk(os.path.join(inc_dir, 'ipxlab')):
    for f in fs:
        p = os.path.join(dp, f)
        h = os.path.relpath(p, inc_dir)
        if owner_of(h):
            check(p, owner_of(h), not h.startswith('ipxlab/priv/'))
for k, v in problems.items():
    print('%s %d' % (k, len(v)))
    for line in v:
        print('  ' + line)
PY
}

check_tree "$REPO" >"$TMP/tree" 2>&1
count() { sed -n "s/^$1 //p" "$TMP/tree"; }
list() { sed -n "/^$1 /,/^[a-z]/p" "$TMP/tree" | grep '^  '; }
[ "$(count folders)" = 0 ]
check "every folder under src/ has its place in the layers" $? "$(list folders)" "$TMP/tree"
[ "$(count headers)" = 0 ]
check "every header in include/ipxlab belongs to a module" $? "$(list headers)"
[ "$(count upward)" = 0 ]
check "no file includes a header of a higher layer" $? "$(list upward)"
[ "$(count priv)" = 0 ]
check "no public header includes an include/ipxlab/priv header" $? "$(list priv)"
[ "$(count cli)" = 0 ]
check "nothing outside src/cli includes a src/cli header" $? "$(list cli)"
[ "$(count private)" = 0 ]
check "a module's own headers are included from that module only" $? "$(list private)"

# The check itself: a tree with a lower layer reaching up is refused.
mkdir -p "$TMP/bad/src/link" "$TMP/bad/src/extra" "$TMP/bad/include/ipxlab"
cp "$REPO"/include/ipxlab/capture.h "$TMP/bad/include/ipxlab/"
printf '#include "ipxlab/capture.h"\n#include "../cli/cli.h"\n' >"$TMP/bad/src/link/up.c"
check_tree "$TMP/bad" >"$TMP/bad.out" 2>&1
grep -q '^upward 1$' "$TMP/bad.out" && grep -q '^cli 1$' "$TMP/bad.out" &&
	grep -q '^folders 1$' "$TMP/bad.out"
check "the check refuses link including capture and cli, and an unplaced folder" $? "$TMP/bad.out"
finish
