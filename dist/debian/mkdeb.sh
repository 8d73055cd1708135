#!/usr/bin/env bash
# mkdeb.sh MAKE BUILD SANITIZE VERSION COMMIT DATE - `make deb`: build
# BUILD/ipxlab_VERSION_ARCH.deb with dpkg-deb from `make install-bin` run
# into a staging root with Debian's places (/usr/bin, /usr/share/man,
# /usr/share/bash-completion/completions, /lib/systemd/system,
# /usr/share/doc/ipxlab), the binary stripped, pages and changelog
# compressed as Debian does, Depends from dpkg-shlibdeps, the maintainer
# scripts beside this file. DEB_MAINTAINER names the maintainer.
set -euo pipefail
MAKE=$1 BUILD=$2 SAN=$3 VERSION=$4 COMMIT=$5 DATE=$6
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
MAINTAINER=${DEB_MAINTAINER:-ipxlab maintainers <ipxlab@invalid>}
ARCH=$(dpkg --print-architecture)
WORK=$TOP/$BUILD/deb
STAGE=$WORK/debian/ipxlab
DEB=$BUILD/ipxlab_${VERSION}_$ARCH.deb
DOC=$STAGE/usr/share/doc/ipxlab

rm -rf "$WORK"
mkdir -p "$STAGE/DEBIAN"
"$MAKE" -s --no-print-directory -C "$TOP" BUILD="$BUILD" SANITIZE="$SAN" \
	DESTDIR="$STAGE" PREFIX=/usr SYSCONFDIR=/etc \
	UNITDIR=/lib/systemd/system DOCDIR=/usr/share/doc/ipxlab install-bin

strip --strip-unneeded --remove-section=.comment --remove-section=.note \
	"$STAGE/usr/bin/ipxlab"
find "$STAGE/usr/share/man" -type f -exec gzip -9n {} +
gzip -9n "$DOC/README.md"
install -m 644 "$HERE/copyright" "$DOC/copyright"
printf '%s\n' \
	"ipxlab ($VERSION) unstable; urgency=medium" "" \
	"  * Built from commit $COMMIT." "" \
	" -- $MAINTAINER  $(date -u -d "$DATE" -R)" | gzip -9n >"$DOC/changelog.gz"
chmod 644 "$DOC/changelog.gz"

# Depends: what the binary links against, as dpkg-shlibdeps finds it.
printf 'Source: ipxlab\n\nPackage: ipxlab\nArchitecture: any\n' >"$WORK/debian/control"
depends=$(cd "$WORK" && dpkg-shlibdeps -O -e debian/ipxlab/usr/bin/ipxlab 2>/dev/null |
	sed -n 's/^shlibs:Depends=//p')
size=$(du -sk --exclude=DEBIAN "$STAGE" | cut -f1)

cat >"$STAGE/DEBIAN/control" <<CONTROL
Package: ipxlab
Version: $VERSION
Architecture: $ARCH
Maintainer: $MAINTAINER
Installed-Size: $size
Depends: $depends
Section: net
Priority: optional
Description: IPX, SPX and NetBIOS LAN in user space, DOSBox-compatible
 ipxlab is an IPX, SPX, NetBIOS, SAP and RIP stack that runs as ordinary
 processes: a hub for DOSBox's IPX-over-UDP tunnel, a router, raw
 Ethernet in the four Novell frame types, tools to script the network
 and the early-1990s LAN benchmarks. systemd units run the hub, the
 router and the file server without root.
 .
 Built from commit $COMMIT.
CONTROL
for s in postinst prerm postrm; do
	install -m 755 "$HERE/$s" "$STAGE/DEBIAN/$s"
done
(cd "$STAGE" && find . -type f ! -path './DEBIAN/*' -printf '%P\n' | LC_ALL=C sort |
	xargs -d '\n' md5sum) >"$STAGE/DEBIAN/md5sums"
chmod 644 "$STAGE/DEBIAN/md5sums" "$STAGE/DEBIAN/control"

dpkg-deb --root-owner-group -Zxz --build "$STAGE" "$TOP/$DEB" >/dev/null
echo "$DEB"
