/*
 * work_udp.c - the plain UDP baseline workload (work_int.h): datagrams of
 * the tunnel's size for the same IPX packet (size + 30 bytes) from one
 * UDP socket to another, no IPX at all. Sockets are set up as the tunnel
 * link sets up its own (non-blocking, 1 MB buffers, the sender connected)
 * and a send is complete on the same rule as an IPX datagram: once
 * sendmmsg() has passed it to the kernel, in bursts of BW_BURST.
 */
#include "work_int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "ipxlab/err.h"

#define SOCKBUF (1 << 20)	/* as the tunnel link */
#define RX_BATCH 64

struct udp_fam {
	struct bw_sock k;	/* first: the shared socket baseline */
	struct sockaddr_in local;
};

static void udp_info(const struct ipx_bw *w, struct ipx_bw_info *out)
{
	const struct udp_fam *f = w->fam;

	out->udp = f->local;
}

static void on_readable(struct ipx_loop *loop, int fd, unsigned events,
			void *ctx)
{
	struct ipx_bw *w = ctx;
	struct udp_fam *f = w->fam;
	struct mmsghdr msgs[RX_BATCH];
	struct iovec iov[RX_BATCH];
	unsigned want = ipx_loop_batch(loop);
	int n;

	(void)events;
	if (want > RX_BATCH)
		want = RX_BATCH;
	for (unsigned i = 0; i < want; i++) {
		iov[i].iov_base = f->k.buf + (size_t)i * f->k.len;
		iov[i].iov_len = f->k.len;
		memset(&msgs[i], 0, sizeof(msgs[i]));
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	n = recvmmsg(fd, msgs, want, MSG_DONTWAIT, NULL);
	for (int i = 0; i < n; i++) {
		size_t len = msgs[i].msg_len;

		bw_received(w, len > IPX_HDR_LEN ? len - IPX_HDR_LEN : 0);
	}
}

static int fail_errno(struct ipx_bw *w, const char *what)
{
	bw_set_error(w, "UDP %s: %s", what, strerror(errno));
	return IPX_EIO;
}

static int udp_open(struct ipx_bw *w)
{
	struct udp_fam *f = calloc(1, sizeof(*f));
	bool sender = w->role == IPX_BW_SENDER;
	int sz = SOCKBUF, rc;

	if (!f)
		return IPX_ENOMEM;
	w->fam = f;
	f->k.fd = -1;
	f->k.len = w->p.size + IPX_HDR_LEN;
	f->k.buf = calloc(sender ? 1 : RX_BATCH, f->k.len);
	if (!f->k.buf)
		return IPX_ENOMEM;
	f->k.fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
			 0);
	if (f->k.fd < 0)
		return fail_errno(w, "socket");
	setsockopt(f->k.fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	setsockopt(f->k.fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	if (sender) {
		memcpy(f->k.buf + IPX_HDR_LEN, w->payload, w->p.size);
		if (w->p.peer.udp.sin_family != AF_INET ||
		    w->p.peer.udp.sin_port == 0) {
			bw_set_error(w, "no UDP address for the receiver "
					"(an Ethernet receiver gives none: "
					"the baseline needs both agents on "
					"one kind of link)");
			return IPX_EINVAL;
		}
		if (connect(f->k.fd, (const struct sockaddr *)&w->p.peer.udp,
			    sizeof(w->p.peer.udp)) < 0)
			return fail_errno(w, "connect");
	} else {
		socklen_t alen = sizeof(f->local);

		f->local.sin_family = AF_INET;
		f->local.sin_addr = w->p.udp_bind;
		if (bind(f->k.fd, (struct sockaddr *)&f->local,
			 sizeof(f->local)) < 0)
			return fail_errno(w, "bind");
		if (getsockname(f->k.fd, (struct sockaddr *)&f->local,
				&alen) < 0)
			return fail_errno(w, "getsockname");
		rc = bw_sock_watch(w, on_readable, "UDP");
		if (rc != IPX_OK)
			return rc;
	}
	bw_ready(w);
	return IPX_OK;
}

const struct bw_ops bw_udp_ops = {
	.open = udp_open,
	.info = udp_info,
	.send_one = bw_sock_send_one,
	.flush = bw_sock_flush,
	.close = bw_sock_close,
};
