#!/usr/bin/env bash
# install-deps.sh - install the Debian packages ipxlab's build and tests
# need, only those missing. Runs as part of `make test`; needs root (or
# sudo) only when something is missing.
set -euo pipefail

# package: what needs it
PKGS=(
	gcc make            # the build
	libcmocka-dev       # unit tests
	clang libclang-rt-14-dev   # libFuzzer harnesses
	dosbox nasm xvfb xauth     # DOSBox interop tests (a .COM built with nasm)
	tshark              # Wireshark dissector checks
	iproute2            # network namespaces for later link tests
	man-db groff-base   # make install test: man renders every page
	systemd             # systemd-analyze verify / security on the units
	dpkg-dev pkgconf    # make deb (dpkg-shlibdeps); the library via pkg-config
	gcovr               # make coverage
	libfuse3-dev fuse3  # ipxlab mount (FUSE) and its test (fusermount3)
	dbench fio          # the mount's long suites (tests/mount/suites.sh, .ci/run)
	strace              # bench_retrieval_test: the single-frame driver's system calls
	gnuplot-nox         # bench suite / bench plot: the plots (SVG, PNG)
	chromium            # suite_test.sh: index.html in headless Chromium
	python3-jsonschema  # suite_test.sh: the results against docs/schema
)

missing=()
for p in "${PKGS[@]}"; do
	dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
SUDO=
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null; then
		SUDO=sudo
	else
		echo "install-deps: not root and no sudo; please install: ${missing[*]}" >&2
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
# tshark asks whether non-root users may capture; answer no, unattended.
echo "wireshark-common wireshark-common/install-setuid boolean false" |
	$SUDO debconf-set-selections 2>/dev/null || true
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
