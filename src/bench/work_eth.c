/*
 * work_eth.c - the baseline workload on an Ethernet link (work_int.h):
 * what the UDP kind measures when the agent's node is on an Ethernet
 * interface. There is no tunnel and no hub there, so the same path
 * without IPX is plain frames between the same two interfaces: one
 * AF_PACKET socket to another, frames as long as the IPX frames of the
 * same payload in the sender's frame type, on the IEEE local experimental
 * EtherType 0x88B5 (the IPX link never sees them). A send is complete on
 * the rule of the IPX datagram row: once sendmmsg() has passed it to the
 * kernel, in bursts of BW_BURST. docs/benchmarks.md says why.
 *
 * The receiver's READY names its MAC as its node (info.addr; info.udp
 * stays empty); a sender whose receiver gave a UDP address instead (it is
 * not on Ethernet) fails with a message saying so.
 */
#include "work_int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/frame.h"
#include "ipxlab/link_eth.h"
#include "ipxlab/log.h"
#include "ipxlab/node.h"

#define ETHERTYPE_BASELINE 0x88B5	/* IEEE 802 local experimental 1 */
#define SOCKBUF (4 << 20)		/* as the Ethernet link */
#define RX_BATCH 64
#define FRAME_CAP 1514

struct eth_fam {
	struct bw_sock k;	/* first: the shared socket baseline */
	uint8_t mac[IPX_NODE_LEN];	/* this interface's (the link node) */
	size_t want;		/* receiver: shortest frame that counts */
	/* receiver: frames discarded (named drop counters) */
	uint64_t drop_short;	/* shorter than the run's frames */
	uint64_t drop_not_ours;	/* sent to another station */
};

bool bw_eth_baseline(struct ipx_node *node)
{
	struct ipx_link *link = ipx_node_link(node, 0);

	return link && !strcmp(link->kind, "eth");
}

static void eth_info(const struct ipx_bw *w, struct ipx_bw_info *out)
{
	const struct eth_fam *f = w->fam;

	ipx_node_address(w->node, &out->addr);
	memcpy(out->addr.node, f->mac, IPX_NODE_LEN);
}

static void on_readable(struct ipx_loop *loop, int fd, unsigned events,
			void *ctx)
{
	struct ipx_bw *w = ctx;
	struct eth_fam *f = w->fam;
	struct mmsghdr msgs[RX_BATCH];
	struct iovec iov[RX_BATCH];
	struct sockaddr_ll from[RX_BATCH];
	unsigned want = ipx_loop_batch(loop);
	int n;

	(void)events;
	if (want > RX_BATCH)
		want = RX_BATCH;
	for (unsigned i = 0; i < want; i++) {
		iov[i].iov_base = f->k.buf + (size_t)i * FRAME_CAP;
		iov[i].iov_len = FRAME_CAP;
		memset(&msgs[i], 0, sizeof(msgs[i]));
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
		msgs[i].msg_hdr.msg_name = &from[i];
		msgs[i].msg_hdr.msg_namelen = sizeof(from[i]);
	}
	n = recvmmsg(fd, msgs, want, MSG_DONTWAIT, NULL);
	for (int i = 0; i < n; i++) {
		if (from[i].sll_pkttype != PACKET_HOST)
			f->drop_not_ours++;
		else if (msgs[i].msg_len < f->want)
			f->drop_short++;
		else
			bw_received(w, w->p.size);
	}
}

static int fail_errno(struct ipx_bw *w, const char *what)
{
	int e = errno;

	bw_set_error(w, "Ethernet baseline: %s: %s%s", what, strerror(e),
		     e == EPERM ? " (needs root or CAP_NET_RAW)" : "");
	return IPX_EIO;
}

/* The sender's frame: as long as its link's IPX frame of this payload. */
static int build_frame(struct ipx_bw *w, struct ipx_link *link)
{
	struct eth_fam *f = w->fam;
	enum ipx_frame_type t = ipx_eth_link_frame(link);
	const uint8_t *dst = w->p.peer.addr.node;
	size_t body;

	if (t == IPX_FRAME_AUTO)	/* what the link sends until it learns */
		t = IPX_FRAME_ETHERNET_II;
	body = ipx_frame_overhead(t) + IPX_HDR_LEN + w->p.size;
	f->k.len = IPX_ETH_HDR_LEN + body;
	if (f->k.len < IPX_ETH_MIN_FRAME)
		f->k.len = IPX_ETH_MIN_FRAME;
	if (f->k.len > FRAME_CAP) {
		bw_set_error(w, "Ethernet baseline: %zu bytes do not fit in a "
				"frame",
			     w->p.size);
		return IPX_ERANGE;
	}
	f->k.buf = calloc(1, FRAME_CAP);
	if (!f->k.buf)
		return IPX_ENOMEM;
	memcpy(f->k.buf, dst, IPX_NODE_LEN);
	memcpy(f->k.buf + IPX_NODE_LEN, f->mac, IPX_NODE_LEN);
	ipx_put16(f->k.buf + 12, ETHERTYPE_BASELINE);
	/* the payload where the IPX frame carries it; zeros before it */
	memcpy(f->k.buf + IPX_ETH_HDR_LEN + body - w->p.size, w->payload,
	       w->p.size);
	return IPX_OK;
}

static int eth_open(struct ipx_bw *w)
{
	struct ipx_link *link = ipx_node_link(w->node, 0);
	struct eth_fam *f = calloc(1, sizeof(*f));
	bool sender = w->role == IPX_BW_SENDER;
	uint16_t proto = sender ? 0 : htons(ETHERTYPE_BASELINE);
	struct sockaddr_ll a = { .sll_family = AF_PACKET,
				 .sll_protocol = proto };
	int one = 1, sz = SOCKBUF, rc;

	if (!f)
		return IPX_ENOMEM;
	w->fam = f;
	f->k.fd = -1;
	memcpy(f->mac, link->node, IPX_NODE_LEN);
	a.sll_ifindex = ipx_eth_link_ifindex(link);
	if (sender) {
		if (w->p.peer.udp.sin_port != 0) {
			bw_set_error(w, "the receiver is not on Ethernet (it "
					"gave a UDP address): no common path "
					"for the baseline");
			return IPX_EINVAL;
		}
		rc = build_frame(w, link);
		if (rc != IPX_OK)
			return rc;
	} else {
		f->want = IPX_ETH_HDR_LEN + IPX_HDR_LEN + w->p.size;
		f->k.buf = calloc(RX_BATCH, FRAME_CAP);
		if (!f->k.buf)
			return IPX_ENOMEM;
	}
	f->k.fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
		       proto);
	if (f->k.fd < 0)
		return fail_errno(w, "socket");
	setsockopt(f->k.fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one,
		   sizeof(one));
	if (setsockopt(f->k.fd, SOL_SOCKET, sender ? SO_SNDBUFFORCE
						 : SO_RCVBUFFORCE,
		       &sz, sizeof(sz)) < 0)
		setsockopt(f->k.fd, SOL_SOCKET, sender ? SO_SNDBUF : SO_RCVBUF,
			   &sz, sizeof(sz));
	if (bind(f->k.fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		return fail_errno(w, "bind");
	if (!sender) {
		rc = bw_sock_watch(w, on_readable, "packet");
		if (rc != IPX_OK)
			return rc;
	}
	bw_ready(w);
	return IPX_OK;
}

static void eth_close(struct ipx_bw *w)
{
	struct eth_fam *f = w->fam;

	if (!f)
		return;
	if (f->drop_short || f->drop_not_ours)
		ipx_debug("Ethernet baseline: dropped %llu short frames, %llu "
			  "for other stations",
			  (unsigned long long)f->drop_short,
			  (unsigned long long)f->drop_not_ours);
	bw_sock_close(w);
}

const struct bw_ops bw_eth_ops = {
	.open = eth_open,
	.info = eth_info,
	.send_one = bw_sock_send_one,
	.flush = bw_sock_flush,
	.close = eth_close,
};
