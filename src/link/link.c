/*
 * link.c - what every link driver shares.
 */
#include "ipxlab/link.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "ipxlab/loop.h"

#define MAX_BATCH 64

void ipx_link_set_up(struct ipx_link *link, bool up)
{
	if (link->up == up)
		return;
	link->up = up;
	if (link->on_state)
		link->on_state(link, up, link->state_ctx);
}

int ipx_link_recv_batch(struct ipx_loop *loop, int fd, uint8_t *bufs,
			size_t bufsize, unsigned nbufs, void *names,
			size_t namelen, ipx_link_rx_each each, void *ctx)
{
	struct mmsghdr msgs[MAX_BATCH];
	struct iovec iov[MAX_BATCH];
	unsigned budget = ipx_loop_batch(loop);

	if (nbufs > MAX_BATCH)
		nbufs = MAX_BATCH;
	while (budget > 0) {
		unsigned want = budget < nbufs ? budget : nbufs;
		int n;

		for (unsigned i = 0; i < want; i++) {
			iov[i].iov_base = bufs + i * bufsize;
			iov[i].iov_len = bufsize;
			memset(&msgs[i], 0, sizeof(msgs[i]));
			if (names) {
				msgs[i].msg_hdr.msg_name =
					(uint8_t *)names + i * namelen;
				msgs[i].msg_hdr.msg_namelen =
					(socklen_t)namelen;
			}
			msgs[i].msg_hdr.msg_iov = &iov[i];
			msgs[i].msg_hdr.msg_iovlen = 1;
		}
		n = recvmmsg(fd, msgs, want, MSG_DONTWAIT, NULL);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (int i = 0; i < n; i++)
			each(ctx, (unsigned)i, msgs[i].msg_len,
			     (msgs[i].msg_hdr.msg_flags & MSG_TRUNC) != 0,
			     names ? msgs[i].msg_hdr.msg_name : NULL);
		budget -= (unsigned)n;
		if ((unsigned)n < want)
			return 0;
	}
	return 0;
}

void ipx_link_send_batch(struct ipx_link *link, int fd, const uint8_t *bufs,
			 size_t stride, const size_t *lens, unsigned n,
			 void (*sent)(struct ipx_link *link, unsigned i))
{
	struct mmsghdr msgs[MAX_BATCH];
	struct iovec iov[MAX_BATCH];
	unsigned done = 0;

	if (n > MAX_BATCH)
		n = MAX_BATCH;
	for (unsigned i = 0; i < n; i++) {
		iov[i].iov_base = (void *)(bufs + i * stride);
		iov[i].iov_len = lens[i];
		memset(&msgs[i], 0, sizeof(msgs[i]));
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	while (done < n) {
		int k = sendmmsg(fd, msgs + done,
				 link->single_frame ? 1 : n - done, 0);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			link->stats.tx_errors++;
			done++;
			continue;
		}
		for (unsigned i = done; i < done + (unsigned)k; i++) {
			link->stats.tx_packets++;
			link->stats.tx_bytes += lens[i];
			if (sent)
				sent(link, i);
		}
		done += (unsigned)k;
	}
}
