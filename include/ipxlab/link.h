/*
 * link.h - the one interface every link driver implements.
 *
 * A link carries whole IPX packets (header included) between this node and
 * its segment: the UDP tunnel, an Ethernet interface, or the in-memory
 * segment used by tests. A driver fills in the fields below, calls rx for
 * every received packet, and calls on_state when it comes up or goes down.
 *
 * Ownership: send() copies what it needs (queueing it until the loop's
 * before-sleep flush); rx gets bytes borrowed for the duration of the call.
 * close() frees the link.
 */
#ifndef IPXLAB_LINK_H
#define IPXLAB_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipxlab/ipx.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ipx_link;
struct ipx_loop;
struct ipx_host;

struct ipx_link_ops {
	/* Queue one IPX packet for 'next_hop' (a node on this segment, or
	 * broadcast). Returns IPX_OK, IPX_ETOOBIG, IPX_ENOTUP or IPX_EIO. */
	int (*send)(struct ipx_link *link, const uint8_t *pkt, size_t len,
		    const uint8_t next_hop[IPX_NODE_LEN]);
	/* Send whatever is queued now (the loop also does it before sleep). */
	void (*flush)(struct ipx_link *link);
	void (*close)(struct ipx_link *link);
};

typedef void (*ipx_link_rx_cb)(struct ipx_link *link, const uint8_t *pkt,
			       size_t len, void *ctx);
typedef void (*ipx_link_state_cb)(struct ipx_link *link, bool up, void *ctx);

/*
 * Capture (--pcap, "ipxlab capture"): a driver shows the tap every packet
 * it sends or receives, as it goes. An Ethernet link passes the whole
 * frame (frame = true, data = MAC header onward, src/dst NULL); the other
 * links pass the IPX packet and the nodes it travels between on the
 * segment, and the tap supplies an Ethernet II header. Bytes are borrowed.
 */
struct ipx_link_tap_pkt {
	bool tx;			/* sent by this link (else received) */
	bool frame;			/* data is a whole Ethernet frame */
	const uint8_t *data;
	size_t len;
	const uint8_t *dst, *src;	/* IPX_NODE_LEN each, or NULL */
};
typedef void (*ipx_link_tap_cb)(struct ipx_link *link,
				const struct ipx_link_tap_pkt *pkt, void *ctx);

struct ipx_link_stats {
	uint64_t tx_packets, tx_bytes;
	uint64_t rx_packets, rx_bytes;
	uint64_t tx_errors;	/* the driver could not send */
	uint64_t rx_errors;	/* the driver could not read */
	uint64_t rx_control;	/* link-level control packets consumed */
};

struct ipx_link {
	const struct ipx_link_ops *ops;
	struct ipx_loop *loop;
	const char *kind;		/* "udp", "mem", "eth" */
	uint32_t net;			/* network number of the segment */
	uint8_t node[IPX_NODE_LEN];	/* this node's address on it */
	size_t mtu;			/* largest IPX packet, header included */
	bool up;			/* address known, can send */
	ipx_link_rx_cb rx;
	void *rx_ctx;
	ipx_link_state_cb on_state;
	void *state_ctx;
	ipx_link_tap_cb tap;		/* NULL: no capture */
	void *tap_ctx;
	struct ipx_link_stats stats;
	/* One frame per system call (sendmmsg and recvmmsg of one, the
	 * driver B8 calls "single-frame"); false: batches (the default) */
	bool single_frame;
	/* The period machine this link's node runs on (host.h), set by
	 * ipx_host_new on the link it gives the node; NULL: none. */
	struct ipx_host *host;
};

static inline int ipx_link_send(struct ipx_link *link, const uint8_t *pkt,
				size_t len, const uint8_t next_hop[IPX_NODE_LEN])
{
	return link->ops->send(link, pkt, len, next_hop);
}

static inline void ipx_link_close(struct ipx_link *link)
{
	if (link)
		link->ops->close(link);
}

/* Drivers call these. */
void ipx_link_set_up(struct ipx_link *link, bool up);

/* One datagram of a batch: buffer index i, its length, whether it was cut
 * to fit its buffer, and its source address (NULL if none was asked). */
typedef void (*ipx_link_rx_each)(void *ctx, unsigned i, size_t len,
				 bool truncated, const void *from);

/*
 * Drain fd with recvmmsg, at most the loop's batch cap per call: nbufs
 * buffers of bufsize bytes each at 'bufs' (and, unless 'names' is NULL,
 * nbufs source addresses of namelen bytes each), then each(ctx, ...) per
 * datagram. Returns 0 once the socket is empty or the cap is reached, or
 * -1 with errno for an error other than EAGAIN (the caller counts it).
 */
/*
 * Send n queued datagrams (buffer i at bufs + i * stride, lens[i] bytes)
 * with sendmmsg on a connected or bound socket, counting tx_packets and
 * tx_bytes, and tx_errors for each one the socket refuses (skipped:
 * datagrams are best effort). sent(link, i), if not NULL, sees each one
 * that left.
 */
void ipx_link_send_batch(struct ipx_link *link, int fd, const uint8_t *bufs,
			 size_t stride, const size_t *lens, unsigned n,
			 void (*sent)(struct ipx_link *link, unsigned i));

int ipx_link_recv_batch(struct ipx_loop *loop, int fd, uint8_t *bufs,
			size_t bufsize, unsigned nbufs, void *names,
			size_t namelen, ipx_link_rx_each each, void *ctx);

/* Show one IPX packet (not a whole frame) to the tap, if there is one. */
static inline void ipx_link_tap_ipx(struct ipx_link *link, bool tx,
				    const uint8_t *pkt, size_t len,
				    const uint8_t *dst, const uint8_t *src)
{
	if (link->tap) {
		struct ipx_link_tap_pkt p = { tx, false, pkt, len, dst, src };

		link->tap(link, &p, link->tap_ctx);
	}
}

/* Show one whole Ethernet frame to the tap, if there is one. */
static inline void ipx_link_tap_frame(struct ipx_link *link, bool tx,
				      const uint8_t *frame, size_t len)
{
	if (link->tap) {
		struct ipx_link_tap_pkt p = { tx, true, frame, len, NULL,
					      NULL };

		link->tap(link, &p, link->tap_ctx);
	}
}

#ifdef __cplusplus
}
#endif

#endif
