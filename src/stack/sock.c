/*
 * sock.c - the programs' sockets in the stack: a socketpair per socket
 * (the program gets one end), bind with af_ipx's rules (network 0 is the
 * primary interface, dynamic ports counting up from 0x4000, EACCES below
 * 0x4000 without CAP_NET_ADMIN, EADDRINUSE), connect, the socket's packet
 * type, and the data path both ways: a SEND frame becomes an IPX
 * datagram, a datagram for the socket becomes a DATA frame.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "ipxlab/buf.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "stack_int.h"

/* What a program's socket may queue towards it before datagrams drop. */
#define STACK_SOCK_BUF (1 << 20)
/* A datagram to the program: a DATA frame from src. */
static void to_program(struct stack_sock *ss, uint8_t type,
		       const struct ipx_addr *src, const uint8_t *data,
		       size_t len)
{
	struct ipx_stack_frame f = { .op = IPX_STACK_DATA, .type = type,
				     .addr = *src };
	uint8_t head[IPX_STACK_FRAME_HDR];
	struct iovec iov[2] = { { head, sizeof(head) },
				{ (void *)data, len } };
	struct msghdr m = { .msg_iov = iov, .msg_iovlen = 2 };

	ipx_stack_frame_encode(head, &f);
	if (sendmsg(ss->fd, &m, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
		ss->st->stats.drops[IPX_STACK_DROP_RX_FULL]++;
	else
		ss->st->stats.rx_datagrams++;
}

static void on_ipx(struct ipx_socket *sock, const struct ipx_header *hdr,
		   const uint8_t *data, size_t len, void *ctx)
{
	struct stack_sock *ss = ctx;
	struct ipx_addr src = hdr->src;

	(void)sock;
	/* af_ipx gave a source on network 0 the number of the interface it
	 * came in on (ipxitf_rcv), so a server answering it (mars_nwe to a
	 * hub client) sends on that interface, not to its own primary. */
	if (src.net == 0) {
		const struct ipx_link *in = ipx_node_rx_link(ss->st->node);

		if (in)
			src.net = in->net;
	}
	to_program(ss, hdr->type, &src, data, len);
}

/* A datagram larger than the node's packets (IPX_LAN_PACKET: the stack
 * runs on Ethernet and tunnel links) for one of our own addresses: af_ipx
 * looped up to 65505 bytes to a local socket, so the stack hands it over
 * itself. False when dst is not ours. */
static bool send_local_large(struct stack_sock *ss, const struct ipx_addr *dst,
			     uint8_t type, const uint8_t *data, size_t len)
{
	struct ipx_stack *st = ss->st;
	struct ipx_addr d = *dst, primary;

	if (d.net == 0 && stack_primary(st, &primary))
		d.net = primary.net;
	if (!ipx_node_is_own(st->node, &d))
		return false;
	for (struct stack_sock *to = st->socks; to; to = to->next) {
		if (to->isock && to->local.socket == d.socket) {
			to_program(to, type, &ss->local, data, len);
			st->stats.tx_datagrams++;
			return true;
		}
	}
	st->stats.drops[IPX_STACK_DROP_TX_REFUSED]++;	/* no such socket */
	return true;
}

/* Bind to addr (network 0: the primary; socket 0: a dynamic one).
 * Returns 0 or an errno. */
static int do_bind(struct stack_sock *ss, const struct ipx_addr *addr,
		   const struct stack_cred *cred)
{
	struct ipx_stack *st = ss->st;
	struct ipx_addr local;
	int rc;

	if (ss->isock)
		return EINVAL;
	if (addr->socket && addr->socket < IPX_SOCK_DYNAMIC_MIN &&
	    !st->allow_low && (!cred || !stack_cred_admin(cred)))
		return EACCES;
	if (addr->net == 0) {
		if (!stack_primary(st, &local))
			return EADDRNOTAVAIL;
	} else {
		local.net = addr->net;
		if (!stack_own_net(st, addr->net, local.node))
			return EADDRNOTAVAIL;
	}
	rc = ipx_socket_open(st->node, addr->socket, on_ipx, ss, &ss->isock);
	if (rc == IPX_EINUSE)
		return EADDRINUSE;
	if (rc != IPX_OK) {
		st->stats.drops[IPX_STACK_DROP_TABLE_FULL]++;
		return ENOBUFS;
	}
	local.socket = ipx_socket_number(ss->isock);
	/* af_ipx sent from SAP and RIP sockets with the outgoing
	 * interface's network and node, not the internal network's (its
	 * "RIP/SAP special handling for mars_nwe"): a server's answers then
	 * name a router on the asker's own network. */
	if (local.socket == IPX_SOCK_SAP || local.socket == IPX_SOCK_RIP)
		ipx_socket_set_link_source(ss->isock, true);
	ss->local = local;
	return 0;
}

/* connect(): the network must be reachable (stack_reachable). */
static int do_connect(struct stack_sock *ss, const struct ipx_addr *to,
		      uint8_t type)
{
	struct ipx_addr any = { 0 };
	int rc;

	if (!ss->isock && (rc = do_bind(ss, &any, NULL)) != 0)
		return rc == EADDRNOTAVAIL ? ENETDOWN : rc;
	if (!stack_reachable(ss->st, to->net))
		return ENETUNREACH;
	ss->peer = *to;
	ss->type = type;
	ss->connected = true;
	return 0;
}

static void send_frame(struct stack_sock *ss, const uint8_t *p, size_t n)
{
	struct ipx_stack *st = ss->st;
	struct ipx_stack_frame f;
	struct ipx_addr any = { 0 };
	const struct ipx_addr *dst;
	uint8_t type;

	if (ipx_stack_frame_decode(p, n, &f) != IPX_OK ||
	    f.op != IPX_STACK_SEND) {
		st->stats.drops[IPX_STACK_DROP_BAD_FRAME]++;
		return;
	}
	if (f.flags & IPX_STACK_F_ADDR) {
		dst = &f.addr;
	} else if (ss->connected) {
		dst = &ss->peer;
	} else {
		st->stats.drops[IPX_STACK_DROP_NOT_CONNECTED]++;
		return;
	}
	if (!ss->isock && do_bind(ss, &any, NULL) != 0) {
		st->stats.drops[IPX_STACK_DROP_TX_REFUSED]++;
		return;
	}
	type = (f.flags & IPX_STACK_F_TYPE) ? f.type : ss->type;
	if (n - IPX_STACK_FRAME_HDR + IPX_HDR_LEN > IPX_LAN_PACKET &&
	    send_local_large(ss, dst, type, p + IPX_STACK_FRAME_HDR,
			     n - IPX_STACK_FRAME_HDR))
		return;
	if (ipx_socket_sendto(ss->isock, dst, type, p + IPX_STACK_FRAME_HDR,
			      n - IPX_STACK_FRAME_HDR) != IPX_OK)
		st->stats.drops[IPX_STACK_DROP_TX_REFUSED]++;
	else
		st->stats.tx_datagrams++;
}

static void on_data(struct ipx_loop *loop, int fd, unsigned events, void *ctx)
{
	struct stack_sock *ss = ctx;
	struct mmsghdr mm[STACK_RX_BATCH];
	struct iovec iov[STACK_RX_BATCH];
	unsigned done = 0;

	(void)events;
	for (unsigned i = 0; i < STACK_RX_BATCH; i++) {
		iov[i].iov_base = ss->st->rxbuf + (size_t)i * STACK_RX_SLOT;
		iov[i].iov_len = STACK_RX_SLOT;
	}
	while (done < ipx_loop_batch(loop)) {
		int n;

		for (unsigned i = 0; i < STACK_RX_BATCH; i++) {
			memset(&mm[i], 0, sizeof(mm[i]));
			mm[i].msg_hdr.msg_iov = &iov[i];
			mm[i].msg_hdr.msg_iovlen = 1;
		}
		n = recvmmsg(fd, mm, STACK_RX_BATCH, MSG_DONTWAIT, NULL);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		for (int i = 0; i < n; i++) {
			if (mm[i].msg_len == 0)
				break;	/* end of file, below */
			if (mm[i].msg_hdr.msg_flags & MSG_TRUNC)
				/* beyond IPX (65505 bytes) */
				ss->st->stats.drops[IPX_STACK_DROP_TX_REFUSED]++;
			else
				send_frame(ss, iov[i].iov_base, mm[i].msg_len);
		}
		if (n <= 0 || mm[n - 1].msg_len == 0) {
			stack_sock_free(ss);	/* every copy is closed */
			return;
		}
		done += (unsigned)n;
	}
}

struct stack_sock *stack_sock_new(struct ipx_stack *st, uid_t uid,
				  int *client_fd)
{
	struct stack_sock *ss = calloc(1, sizeof(*ss));
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int sv[2], size = STACK_SOCK_BUF;
	struct stat sb;
	socklen_t salen;

	if (!ss)
		return NULL;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		free(ss);
		return NULL;
	}
	/* An abstract name on our end: a program's getpeername() then tells
	 * the shim the descriptor is an IPX socket, even after exec. */
	salen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
			    (size_t)snprintf(sa.sun_path + 1,
					     sizeof(sa.sun_path) - 1,
					     "ipxlab-stack/%ld/%u",
					     (long)getpid(), ++st->seq));
	if (bind(sv[0], (struct sockaddr *)&sa, salen) < 0 ||
	    fstat(sv[1], &sb) < 0 ||
	    ipx_loop_add_fd(st->loop, sv[0], IPX_EV_READ, on_data, ss) !=
		    IPX_OK) {
		close(sv[0]);
		close(sv[1]);
		free(ss);
		return NULL;
	}
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	ss->st = st;
	ss->fd = sv[0];
	ss->ino = sb.st_ino;
	ss->uid = uid;
	ss->next = st->socks;
	st->socks = ss;
	st->nsocks++;
	st->stats.opened++;
	*client_fd = sv[1];
	return ss;
}

void stack_sock_free(struct stack_sock *ss)
{
	struct ipx_stack *st = ss->st;

	for (struct stack_sock **p = &st->socks; *p; p = &(*p)->next) {
		if (*p == ss) {
			*p = ss->next;
			break;
		}
	}
	if (ss->isock)
		ipx_socket_close(ss->isock);
	ipx_loop_del_fd(st->loop, ss->fd);
	close(ss->fd);
	st->nsocks--;
	st->stats.closed++;
	free(ss);
}

struct stack_sock *stack_sock_find(struct ipx_stack *st, int fd)
{
	struct stat sb;

	if (fstat(fd, &sb) < 0 || !S_ISSOCK(sb.st_mode))
		return NULL;
	for (struct stack_sock *ss = st->socks; ss; ss = ss->next)
		if (ss->ino == sb.st_ino)
			return ss;
	return NULL;
}

void stack_sock_request(struct stack_sock *ss, const struct ipx_stack_req *req,
			const struct stack_cred *cred, struct stack_reply *rep)
{
	uint8_t *b = rep->body;

	switch (req->op) {
	case IPX_STACK_BIND:
		rep->err = (uint32_t)do_bind(ss, &req->addr, cred);
		if (!rep->err) {
			ipx_stack_put_addr(b, &ss->local);
			rep->len = IPX_STACK_ADDR_LEN;
		}
		break;
	case IPX_STACK_CONNECT:
		rep->err = (uint32_t)do_connect(ss, &req->addr, req->type);
		break;
	case IPX_STACK_INFO: {
		struct ipx_addr none = { 0 };

		b[0] = (ss->isock ? IPX_STACK_INFO_BOUND : 0) |
		       (ss->connected ? IPX_STACK_INFO_CONNECTED : 0);
		b[1] = ss->type;
		b[2] = b[3] = 0;
		ipx_stack_put_addr(b + 4, ss->isock ? &ss->local : &none);
		ipx_stack_put_addr(b + 16, ss->connected ? &ss->peer : &none);
		rep->len = 4 + 2 * IPX_STACK_ADDR_LEN;
		break;
	}
	case IPX_STACK_SETTYPE:
		ss->type = req->type;
		break;
	default:
		rep->err = EINVAL;
		break;
	}
}
