/*
 * eth.c - IPX on a real Ethernet interface through an AF_PACKET socket
 * (link_eth.h; frame formats in frame.h and protocols.md section 2).
 *
 * One raw socket bound to the interface for every protocol, with a
 * classic BPF filter that lets through only what can be IPX (EtherType
 * 0x8137 and 802.3 length frames), so the rest of the LAN's traffic never
 * reaches user space. Receive is batched with recvmmsg (up to the loop's
 * cap), send with sendmmsg from a queue flushed before the loop sleeps.
 * docs/links.md says why AF_PACKET and not libpcap, with figures.
 */
#include "ipxlab/link_eth.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

#define QUEUE 64		/* frames batched per sendmmsg */
#define RXBATCH 64		/* frames per recvmmsg */
#define FRAME_MAX (IPX_ETH_HDR_LEN + IPX_ETH_MAX_PAYLOAD)
#define RXBUF 2048		/* more than a frame: longer ones are seen */
#define SOCKBUF (4 << 20)

struct eth_link {
	struct ipx_link link;
	int fd;
	int ifindex;
	char ifname[IFNAMSIZ];
	size_t if_mtu;			/* the interface's MTU (payload) */
	struct ipx_eth_options opts;
	enum ipx_frame_type frame;	/* in use; AUTO while learning */
	bool warned[IPX_FRAME_TYPES];	/* mismatch logged for this type */
	bool warned_checksum;		/* 802.3 refusal logged */
	uint64_t drops[IPX_FRAME_DROP_COUNT];
	struct ipx_hook flush_hook;
	/* send queue: whole frames */
	unsigned nq;
	size_t qlen[QUEUE];
	uint8_t qbuf[QUEUE][FRAME_MAX];
	/* receive buffers, and where each frame came from */
	uint8_t rbuf[RXBATCH][RXBUF];
	struct sockaddr_ll rfrom[RXBATCH];
};

/* The names NetWare's LOAD and ipxbox users know the frame types by. */
static const char *netware_name(enum ipx_frame_type t)
{
	switch (t) {
	case IPX_FRAME_ETHERNET_II:
		return "Ethernet_II";
	case IPX_FRAME_8023:
		return "Ethernet_802.3";
	case IPX_FRAME_8022:
		return "Ethernet_802.2";
	case IPX_FRAME_SNAP:
		return "Ethernet_SNAP";
	default:
		return "unknown";
	}
}

static void set_frame(struct eth_link *e, enum ipx_frame_type t)
{
	size_t mtu = ipx_frame_mtu(t), over = ipx_frame_overhead(t);

	e->frame = t;
	if (e->if_mtu < IPX_ETH_MAX_PAYLOAD) {
		size_t room = e->if_mtu > over ? e->if_mtu - over : 0;

		if (room < mtu)
			mtu = room;
	}
	e->link.mtu = mtu;
}

static void tap_sent(struct ipx_link *link, unsigned i)
{
	struct eth_link *e = (struct eth_link *)link;

	ipx_link_tap_frame(link, true, e->qbuf[i], e->qlen[i]);
}

static void flush(struct ipx_link *link)
{
	struct eth_link *e = (struct eth_link *)link;

	if (!e->nq)
		return;
	/* ENOBUFS, ENETDOWN, EAGAIN: counted as tx_errors, frame skipped. */
	ipx_link_send_batch(link, e->fd, &e->qbuf[0][0], FRAME_MAX, e->qlen,
			    e->nq, link->tap ? tap_sent : NULL);
	e->nq = 0;
}

static void flush_hook(struct ipx_loop *loop, void *ctx)
{
	(void)loop;
	flush(ctx);
}

static int eth_send(struct ipx_link *link, const uint8_t *pkt, size_t len,
		    const uint8_t next_hop[IPX_NODE_LEN])
{
	struct eth_link *e = (struct eth_link *)link;
	/* Until the LAN's type is learnt, Ethernet_II. */
	enum ipx_frame_type t = e->frame == IPX_FRAME_AUTO
					? IPX_FRAME_ETHERNET_II
					: e->frame;
	size_t n;

	if (len > link->mtu)
		return IPX_ETOOBIG;
	if (len < IPX_HDR_LEN)
		return IPX_EINVAL;
	if (e->nq == QUEUE)
		flush(link);
	n = ipx_frame_encode(t, next_hop, link->node, pkt, len,
			     e->qbuf[e->nq], FRAME_MAX);
	if (!n) {
		/* Raw 802.3 cannot carry a checksummed packet. */
		link->stats.tx_errors++;
		if (!e->warned_checksum)
			ipx_warn("eth %s: a checksummed IPX packet cannot go "
				 "out in raw 802.3 frames (their checksum "
				 "field must be FFFF): turn IPX checksums off "
				 "or use another frame type",
				 e->ifname);
		e->warned_checksum = true;
		return IPX_EINVAL;
	}
	e->qlen[e->nq++] = n;
	return IPX_OK;
}

static void drop(struct eth_link *e, enum ipx_frame_drop why)
{
	e->drops[why]++;
}

/* An IPX frame of another type than ours: count it; say once per type
 * what the LAN uses and what to set. */
static void wrong_type(struct eth_link *e, const struct ipx_frame_info *fi)
{
	char node[13];

	drop(e, IPX_FRAME_DROP_WRONG_TYPE);
	if (e->warned[fi->type])
		return;
	e->warned[fi->type] = true;
	ipx_node_format(fi->src, node);
	ipx_warn("eth %s: the LAN uses %s frames (from %s); this link is %s "
		 "%s: use frame=%s to talk to that station (such frames are "
		 "counted as wrong_frame_type; said once per frame type)",
		 e->ifname, netware_name(fi->type), node,
		 e->opts.frame == IPX_FRAME_AUTO ? "learnt" : "set to",
		 ipx_frame_type_name(e->frame),
		 ipx_frame_type_name(fi->type));
}

static void handle(struct eth_link *e, const uint8_t *frame, size_t len,
		   const struct sockaddr_ll *from, bool truncated)
{
	struct ipx_link *link = &e->link;
	struct ipx_frame_info fi;
	enum ipx_frame_drop why;

	/* What this host sends, as the socket sees it leave. */
	if (from->sll_pkttype == PACKET_OUTGOING) {
		drop(e, IPX_FRAME_DROP_LOOPED);
		return;
	}
	if (truncated) {
		drop(e, IPX_FRAME_DROP_TOO_LONG);
		return;
	}
	if (ipx_frame_decode(frame, len, &fi, &why) < 0) {
		drop(e, why);
		return;
	}
	if (!memcmp(fi.src, link->node, IPX_NODE_LEN)) {
		drop(e, IPX_FRAME_DROP_LOOPED);
		return;
	}
	if (!e->opts.promiscuous && !ipx_node_is_broadcast(fi.dst) &&
	    memcmp(fi.dst, link->node, IPX_NODE_LEN)) {
		drop(e, IPX_FRAME_DROP_OTHER_HOST);
		return;
	}
	ipx_link_tap_frame(link, false, frame, len);
	if (e->frame == IPX_FRAME_AUTO) {
		char node[13];

		set_frame(e, fi.type);
		ipx_info("eth %s: the LAN uses %s frames (learnt from the first "
			 "IPX frame, from %s); this link uses frame=%s now",
			 e->ifname, netware_name(fi.type),
			 ipx_node_format(fi.src, node),
			 ipx_frame_type_name(fi.type));
	} else if (fi.type != e->frame) {
		wrong_type(e, &fi);
		return;
	}
	link->stats.rx_packets++;
	link->stats.rx_bytes += fi.ipx_len;
	if (link->rx)
		link->rx(link, fi.ipx, fi.ipx_len, link->rx_ctx);
}

static void rx_one(void *ctx, unsigned i, size_t len, bool truncated,
		   const void *from)
{
	struct eth_link *e = ctx;

	handle(e, e->rbuf[i], len, &e->rfrom[i],
	       truncated || len > FRAME_MAX);
	(void)from;
}

static void on_readable(struct ipx_loop *loop, int fd, unsigned events,
			void *ctx)
{
	struct eth_link *e = ctx;

	(void)events;
	if (ipx_link_recv_batch(loop, fd, &e->rbuf[0][0], RXBUF,
				e->link.single_frame ? 1 : RXBATCH,
				e->rfrom, sizeof(e->rfrom[0]), rx_one, e) < 0) {
		e->link.stats.rx_errors++;
		/* The socket stays bound: frames flow again once it is up. */
		if (errno == ENETDOWN)
			ipx_warn("eth %s: the interface went down (frames "
				 "flow again when it is up)",
				 e->ifname);
	}
}

static void eth_close(struct ipx_link *link)
{
	struct eth_link *e = (struct eth_link *)link;

	flush(link);
	ipx_loop_remove_hook(link->loop, &e->flush_hook);
	ipx_loop_del_fd(link->loop, e->fd);
	close(e->fd);
	free(e);
}

static const struct ipx_link_ops eth_ops = {
	.send = eth_send,
	.flush = flush,
	.close = eth_close,
};

/*
 * Keep only frames that can be IPX: EtherType 0x8137, or a type/length
 * value below 1536 (802.3 lengths, and the invalid 1501..1535, which the
 * link counts). Everything else stays in the kernel.
 */
static int attach_filter(int fd)
{
	static struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 12),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, IPX_ETHERTYPE_IPX, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 1536, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, 0xFFFF),
		BPF_STMT(BPF_RET | BPF_K, 0),
	};
	struct sock_fprog prog = { sizeof(code) / sizeof(code[0]), code };

	return setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog,
			  sizeof(prog));
}

/* Look the interface up: index, MAC, MTU, up. err gets the reason. */
static int query_interface(struct eth_link *e, int fd, char *err,
			   size_t errlen)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, e->ifname, sizeof(ifr.ifr_name));
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0) {
		snprintf(err, errlen, "eth %s: cannot read its address: %s",
			 e->ifname, strerror(errno));
		return IPX_EIO;
	}
	if (ifr.ifr_hwaddr.sa_family != ARPHRD_ETHER) {
		snprintf(err, errlen,
			 "eth %s: not an Ethernet interface (hardware type "
			 "%u); IPX frames need Ethernet",
			 e->ifname, (unsigned)ifr.ifr_hwaddr.sa_family);
		return IPX_EINVAL;
	}
	memcpy(e->link.node, ifr.ifr_hwaddr.sa_data, IPX_NODE_LEN);
	if (ioctl(fd, SIOCGIFMTU, &ifr) < 0) {
		snprintf(err, errlen, "eth %s: cannot read its MTU: %s",
			 e->ifname, strerror(errno));
		return IPX_EIO;
	}
	e->if_mtu = ifr.ifr_mtu > 0 ? (size_t)ifr.ifr_mtu : 0;
	if (e->if_mtu < IPX_HDR_LEN + 8) {
		snprintf(err, errlen, "eth %s: MTU %zu is too small for IPX",
			 e->ifname, e->if_mtu);
		return IPX_EINVAL;
	}
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0) {
		snprintf(err, errlen, "eth %s: cannot read its state: %s",
			 e->ifname, strerror(errno));
		return IPX_EIO;
	}
	if (!(ifr.ifr_flags & IFF_UP)) {
		snprintf(err, errlen,
			 "eth %s: the interface is down (bring it up with "
			 "'ip link set %s up')",
			 e->ifname, e->ifname);
		return IPX_ENOTUP;
	}
	if (!(ifr.ifr_flags & IFF_RUNNING))
		ipx_warn("eth %s: no carrier (cable unplugged, or the other "
			 "end of a veth pair is down): nothing will arrive "
			 "until it has one",
			 e->ifname);
	return IPX_OK;
}

static int open_socket(struct eth_link *e, char *err, size_t errlen)
{
	struct sockaddr_ll addr = { .sll_family = AF_PACKET,
				    .sll_protocol = htons(ETH_P_ALL),
				    .sll_ifindex = e->ifindex };
	int one = 1, size = SOCKBUF;

	e->fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
		       htons(ETH_P_ALL));
	if (e->fd < 0) {
		if (errno == EPERM || errno == EACCES) {
			snprintf(err, errlen,
				 "eth %s: raw Ethernet access needs root or "
				 "the CAP_NET_RAW capability (run as root, "
				 "or once: setcap cap_net_raw+ep "
				 "build/ipxlab)",
				 e->ifname);
			return IPX_EPERM;
		}
		snprintf(err, errlen, "eth %s: cannot open a packet socket: %s",
			 e->ifname, strerror(errno));
		return IPX_EIO;
	}
	/* Our own sends are not news to us (Linux 4.20+; older kernels
	 * show them as PACKET_OUTGOING, which handle() drops). */
	setsockopt(e->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one,
		   sizeof(one));
	/* Big buffers ride out bursts; FORCE works for root only. */
	if (setsockopt(e->fd, SOL_SOCKET, SO_RCVBUFFORCE, &size,
		       sizeof(size)) < 0)
		setsockopt(e->fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (setsockopt(e->fd, SOL_SOCKET, SO_SNDBUFFORCE, &size,
		       sizeof(size)) < 0)
		setsockopt(e->fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	if (attach_filter(e->fd) < 0) {
		snprintf(err, errlen, "eth %s: cannot attach a filter: %s",
			 e->ifname, strerror(errno));
		return IPX_EIO;
	}
	if (bind(e->fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		snprintf(err, errlen, "eth %s: cannot bind to it: %s",
			 e->ifname, strerror(errno));
		return errno == ENETDOWN ? IPX_ENOTUP : IPX_EIO;
	}
	if (e->opts.promiscuous) {
		struct packet_mreq mr = { .mr_ifindex = e->ifindex,
					  .mr_type = PACKET_MR_PROMISC };

		if (setsockopt(e->fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr,
			       sizeof(mr)) < 0) {
			snprintf(err, errlen,
				 "eth %s: cannot make it promiscuous: %s",
				 e->ifname, strerror(errno));
			return IPX_EIO;
		}
	}
	return IPX_OK;
}

int ipx_eth_link_open(struct ipx_loop *loop, const char *ifname,
		      const struct ipx_eth_options *opts,
		      struct ipx_link **out, char *err, size_t errlen)
{
	struct eth_link *e;
	int rc;

	if (!ifname || !*ifname || strlen(ifname) >= IFNAMSIZ) {
		snprintf(err, errlen,
			 "eth: '%s' is not an interface name (1 to %d "
			 "characters, e.g. eth0)",
			 ifname ? ifname : "", IFNAMSIZ - 1);
		return IPX_EINVAL;
	}
	if (opts && (unsigned)opts->frame >= IPX_FRAME_TYPES) {
		snprintf(err, errlen, "eth %s: unknown frame type %d", ifname,
			 (int)opts->frame);
		return IPX_EINVAL;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return IPX_ENOMEM;
	e->fd = -1;
	strcpy(e->ifname, ifname);
	if (opts)
		e->opts = *opts;
	e->ifindex = (int)if_nametoindex(ifname);
	if (!e->ifindex) {
		snprintf(err, errlen,
			 "eth: no network interface named '%s' here (see "
			 "'ip link')",
			 ifname);
		free(e);
		return IPX_ENOTFOUND;
	}
	rc = open_socket(e, err, errlen);
	if (rc == IPX_OK)
		rc = query_interface(e, e->fd, err, errlen);
	if (rc == IPX_OK)
		rc = ipx_loop_add_fd(loop, e->fd, IPX_EV_READ, on_readable, e);
	if (rc != IPX_OK) {
		if (e->fd >= 0)
			close(e->fd);
		free(e);
		return rc;
	}
	e->link.ops = &eth_ops;
	e->link.loop = loop;
	e->link.kind = "eth";
	e->link.net = e->opts.net;
	set_frame(e, e->opts.frame);
	e->link.up = true;	/* the address is the MAC: known now */
	ipx_loop_add_hook(loop, &e->flush_hook, flush_hook, e);
	*out = &e->link;
	return IPX_OK;
}

enum ipx_frame_type ipx_eth_link_frame(const struct ipx_link *link)
{
	return ((const struct eth_link *)link)->frame;
}

int ipx_eth_link_ifindex(const struct ipx_link *link)
{
	return ((const struct eth_link *)link)->ifindex;
}

uint64_t ipx_eth_link_drops(const struct ipx_link *link,
			    enum ipx_frame_drop d)
{
	const struct eth_link *e = (const struct eth_link *)link;

	return (unsigned)d < IPX_FRAME_DROP_COUNT ? e->drops[d] : 0;
}
