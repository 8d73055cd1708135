#!/usr/bin/env bash
# cli_shape_test.sh [IPXLAB] - the command layer stays thin (docs/cli.md):
# in src/cli, outside the benchmark commands, no file over 400 lines, no
# function over 80, no two files calling each other (a call circle), and
# nothing outside src/cli includes its headers. Reads the sources only (the
# binary argument is ignored).
# Prints PASS:/FAIL: per check; exits nonzero if any check failed.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
need_cmd python3
SRC=$(cd "$(dirname "$0")/../.." && pwd)

# Every file of src/cli, the benchmark commands (cmd_bench*, cmd_protocols*,
# fsbench*, benchwan*, bench_common) among them now that their networks are
# the library's.
shape() {
	python3 - "$SRC/src/cli" "$1" <<'PY'
import collections, glob, os, re, sys
cli, what = sys.argv[1], sys.argv[2]
files = sorted(glob.glob(cli + '/*.c'))
bad = []
if what == 'lines':
    for f in files:
        n = sum(1 for _ in open(f))
        if n > 400:
            bad.append('%s: %d lines' % (os.path.basename(f), n))
elif what == 'functions':
    for f in files:
        lines = open(f).read().split('\n')
        start = None
        for i, l in enumerate(lines):
            if l.startswith('{') and i and '(' in ''.join(lines[max(0, i - 3):i]):
                j = i - 1
                while j > 0 and lines[j - 1].strip() and \
                        not lines[j - 1].rstrip().endswith((';', '}', '*/')) and \
                        not lines[j - 1].startswith('#'):
                    j -= 1
                start = j
            elif l.startswith('}') and start is not None:
                if i - start + 1 > 80:
                    m = re.search(r'(\w+)\s*\(', ' '.join(lines[start:start + 3]))
                    bad.append('%s: %s is %d lines' % (os.path.basename(f),
                               m.group(1) if m else '?', i - start + 1))
                start = None
else:  # circles: files that reach each other through external functions
    defs, text = {}, {}
    for f in files:
        s = open(f).read()
        for m in re.finditer(r'^(?!static)[a-z][\w \*]*?\b(\w+)\s*\([^;]*?\)\s*\n\{', s, re.M):
            defs[m.group(1)] = f
        s = re.sub(r'/\*.*?\*/', '', s, flags=re.S)
        s = re.sub(r'^#.*$', '', s, flags=re.M)
        text[f] = re.sub(r'"(\\.|[^"\\])*"', '""', s)
    g = collections.defaultdict(set)
    for f in files:
        for name, df in defs.items():
            if df != f and re.search(r'\b' + name + r'\b', text[f]):
                g[f].add(df)
    index, low, stack, on, n = {}, {}, [], set(), [0]
    sys.setrecursionlimit(10000)
    def visit(v):
        index[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
        for w in g[v]:
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(os.path.basename(w))
                if w == v:
                    break
            if len(comp) > 1:
                bad.append('circle: ' + ' '.join(sorted(comp)))
    for f in files:
        if f not in index:
            visit(f)
print('\n'.join(bad))
sys.exit(1 if bad else 0)
PY
}

out=$(shape lines); check "no command file over 400 lines" $? "$out"
out=$(shape functions); check "no function over 80 lines" $? "$out"
out=$(shape circles); check "no call circle between the command files" $? "$out"
out=$(grep -rlE '#include "(cli|cmd_[a-z_]+)\.h"' "$SRC/src" "$SRC/include" |
	grep -v "^$SRC/src/cli/")
check "nothing below the command layer includes its headers" \
	"$([ -z "$out" ]; echo $?)" "$out"
finish
