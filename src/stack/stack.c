/*
 * stack.c - the stack daemon's frame: the listening unix socket, one
 * control request per connection (decode, answer, close), the caller's
 * credentials, and the counters. Sockets are in sock.c, interfaces and
 * routes in iface.c; the protocol is stack_proto.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "stack_int.h"

#define CAP_NET_ADMIN_BIT 12

static const char *const drop_names[] = {
#define IPX_STACK_DROP_NAME_(id, name, desc) name,
	IPX_STACK_DROPS(IPX_STACK_DROP_NAME_)
#undef IPX_STACK_DROP_NAME_
};

bool stack_cred_admin(const struct stack_cred *cred)
{
	char path[64], line[256];
	bool admin = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/status", (long)cred->pid);
	f = fopen(path, "r");
	if (!f)	/* gone already, or /proc hidden: root only */
		return cred->uid == 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long caps;

		if (sscanf(line, "CapEff: %llx", &caps) == 1) {
			admin = (caps >> CAP_NET_ADMIN_BIT) & 1;
			break;
		}
	}
	fclose(f);
	return admin;
}

static void count_unsupported(struct ipx_stack *st, const char *name)
{
	size_t i;

	for (i = 0; i < st->nunsup; i++)
		if (!strcmp(st->unsup[i].name, name))
			break;
	if (i == st->nunsup) {
		if (st->nunsup == STACK_MAX_UNSUP)
			i = STACK_MAX_UNSUP - 1;	/* the last counts the rest */
		else
			snprintf(st->unsup[st->nunsup++].name,
				 sizeof(st->unsup[0].name), "%s", name);
	}
	st->unsup[i].count++;
	ipx_debug("stack: a program called %s, which is not emulated", name);
}

/* Send the reply, with a descriptor when fd >= 0. */
static void send_reply(int cfd, uint8_t op, const struct stack_reply *rep,
		       uint8_t *buf, int fd)
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(int))];
	} c;
	struct iovec iov = { buf, IPX_STACK_REPLY_HDR + rep->len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };

	ipx_stack_reply_head(buf, op, rep->err);
	if (fd >= 0) {
		memset(&c, 0, sizeof(c));
		m.msg_control = c.space;
		m.msg_controllen = sizeof(c.space);
		c.h.cmsg_level = SOL_SOCKET;
		c.h.cmsg_type = SCM_RIGHTS;
		c.h.cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(&c.h), &fd, sizeof(int));
	}
	if (sendmsg(cfd, &m, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
		ipx_debug("stack: reply lost: %s", strerror(errno));
}

/* The descriptor a request carried, or -1. */
static int take_fd(struct msghdr *m)
{
	int fd = -1;

	for (struct cmsghdr *h = CMSG_FIRSTHDR(m); h; h = CMSG_NXTHDR(m, h)) {
		if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS)
			continue;
		for (size_t i = 0; i < (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		     i++) {
			int got;

			memcpy(&got, CMSG_DATA(h) + i * sizeof(int), sizeof(int));
			if (fd < 0)
				fd = got;
			else
				close(got);
		}
	}
	return fd;
}

static void handle(struct ipx_stack *st, int cfd, const uint8_t *msg,
		   size_t len, int fd, const struct stack_cred *cred)
{
	struct ipx_stack_req req;
	struct stack_reply rep = { .body = st->buf + IPX_STACK_REPLY_HDR,
				   .cap = IPX_STACK_MAX_CTL -
					  IPX_STACK_REPLY_HDR };
	int give = -1;

	if (ipx_stack_req_decode(msg, len, &req) != IPX_OK) {
		st->stats.drops[IPX_STACK_DROP_BAD_REQUEST]++;
		rep.err = EINVAL;
		send_reply(cfd, len ? msg[0] & 0x7F : 0, &rep, st->buf, -1);
		return;
	}
	st->stats.requests++;
	if (req.op == IPX_STACK_OPEN) {
		if (!stack_sock_new(st, cred->uid, &give))
			rep.err = ENOBUFS;
	} else if (req.op == IPX_STACK_UNSUPPORTED) {
		count_unsupported(st, req.name);
	} else if (ipx_stack_op_has_fd(req.op)) {
		struct stack_sock *ss = fd >= 0 ? stack_sock_find(st, fd) : NULL;

		if (!ss) {
			st->stats.drops[IPX_STACK_DROP_NO_SOCKET]++;
			rep.err = EBADF;
		} else {
			stack_sock_request(ss, &req, cred, &rep);
		}
	} else {
		stack_iface_request(st, &req, cred, &rep);
	}
	send_reply(cfd, req.op, &rep, st->buf, give);
	if (give >= 0)
		close(give);
}

static void on_ctl(struct ipx_loop *loop, int cfd, unsigned events, void *ctx)
{
	struct ipx_stack *st = ctx;
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(4 * sizeof(int))];
	} c;
	uint8_t msg[256];
	struct iovec iov = { msg, sizeof(msg) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = c.space,
			    .msg_controllen = sizeof(c.space) };
	struct ucred uc;
	socklen_t ul = sizeof(uc);
	ssize_t n;
	int fd;

	(void)events;
	n = recvmsg(cfd, &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	fd = n >= 0 ? take_fd(&m) : -1;
	if (n > 0 && !(m.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) &&
	    getsockopt(cfd, SOL_SOCKET, SO_PEERCRED, &uc, &ul) == 0) {
		struct stack_cred cred = { uc.pid, uc.uid };

		handle(st, cfd, msg, (size_t)n, fd, &cred);
	} else if (n > 0) {
		st->stats.drops[IPX_STACK_DROP_BAD_REQUEST]++;
	}
	if (fd >= 0)
		close(fd);
	ipx_loop_del_fd(loop, cfd);
	close(cfd);
}

static void on_accept(struct ipx_loop *loop, int lfd, unsigned events,
		      void *ctx)
{
	(void)events;
	for (unsigned i = 0; i < ipx_loop_batch(loop); i++) {
		int cfd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (cfd < 0)
			return;
		if (ipx_loop_add_fd(loop, cfd, IPX_EV_READ, on_ctl, ctx) !=
		    IPX_OK)
			close(cfd);
	}
}

/* Is a stack answering at path already? */
static bool path_alive(const struct sockaddr_un *sa)
{
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	bool alive;

	if (fd < 0)
		return false;
	alive = connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) == 0;
	close(fd);
	return alive;
}

int ipx_stack_new(struct ipx_node *node, const struct ipx_stack_options *opts,
		  struct ipx_stack **out, char *err, size_t errlen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct ipx_stack *st;

	*out = NULL;
	if (!opts->path || strlen(opts->path) >= sizeof(sa.sun_path)) {
		snprintf(err, errlen, "the socket path is empty or longer "
				      "than %zu bytes",
			 sizeof(sa.sun_path) - 1);
		return IPX_EINVAL;
	}
	strcpy(sa.sun_path, opts->path);
	if (path_alive(&sa)) {
		snprintf(err, errlen, "a stack already answers at %s",
			 opts->path);
		return IPX_EINUSE;
	}
	st = calloc(1, sizeof(*st));
	if (st) {
		st->buf = malloc(STACK_BUF_LEN);
		st->rxbuf = malloc((size_t)STACK_RX_BATCH * STACK_RX_SLOT);
	}
	if (!st || !st->buf || !st->rxbuf) {
		if (st) {
			free(st->buf);
			free(st->rxbuf);
		}
		free(st);
		snprintf(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	st->node = node;
	st->loop = ipx_node_loop(node);
	st->allow_low = opts->allow_low_ports;
	st->auto_primary = st->auto_create = 0;
	ipx_timer_init(&st->announce, NULL, st);
	strcpy(st->path, opts->path);
	st->lfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC,
			 0);
	unlink(opts->path);	/* stale: nobody answered */
	if (st->lfd < 0 ||
	    bind(st->lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(st->lfd, 128) < 0 ||
	    ipx_loop_add_fd(st->loop, st->lfd, IPX_EV_READ, on_accept, st) !=
		    IPX_OK) {
		snprintf(err, errlen, "cannot listen on %s: %s", opts->path,
			 strerror(errno));
		if (st->lfd >= 0)
			close(st->lfd);
		free(st->rxbuf);
		free(st->buf);
		free(st);
		return IPX_EIO;
	}
	/* Every local program may use it, as every program could use the
	 * kernel's IPX; privileges are checked per request. */
	chmod(opts->path, 0666);
	*out = st;
	return IPX_OK;
}

void ipx_stack_free(struct ipx_stack *st)
{
	if (!st)
		return;
	ipx_timer_stop(st->loop, &st->announce);
	while (st->socks)
		stack_sock_free(st->socks);
	/* Deleted interfaces of given links: no longer the node's to close. */
	for (size_t i = 0; i < st->ndevs; i++)
		if (!st->devs[i].attached)
			ipx_link_close(st->devs[i].link);
	ipx_loop_del_fd(st->loop, st->lfd);
	close(st->lfd);
	unlink(st->path);
	free(st->rxbuf);
	free(st->buf);
	free(st);
}

int ipx_stack_add_device(struct ipx_stack *st, struct ipx_link *link,
			 const char *name, uint8_t frame)
{
	struct stack_dev *d;

	if (st->ndevs == STACK_MAX_DEVS || strlen(name) > IPX_STACK_DEVLEN)
		return IPX_EINVAL;
	d = &st->devs[st->ndevs++];
	d->link = link;
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->frame = frame;
	d->attached = true;
	d->opened = false;
	ipx_stack_announce(st);
	return IPX_OK;
}

size_t ipx_stack_socket_count(const struct ipx_stack *st)
{
	return st->nsocks;
}

const struct ipx_stack_stats *ipx_stack_stats(const struct ipx_stack *st)
{
	return &st->stats;
}

void ipx_stack_print(const struct ipx_stack *st, FILE *out)
{
	const struct ipx_stack_stats *s = &st->stats;

	fprintf(out, "sockets %zu\nopened %llu\nclosed %llu\nrequests %llu\n"
		     "tx_datagrams %llu\nrx_datagrams %llu\n"
		     "announcements %llu\n",
		st->nsocks, (unsigned long long)s->opened,
		(unsigned long long)s->closed, (unsigned long long)s->requests,
		(unsigned long long)s->tx_datagrams,
		(unsigned long long)s->rx_datagrams,
		(unsigned long long)s->announcements);
	for (int d = 0; d < IPX_STACK_DROP_COUNT; d++)
		if (s->drops[d])
			fprintf(out, "drop %s %llu\n", drop_names[d],
				(unsigned long long)s->drops[d]);
	for (size_t i = 0; i < st->nunsup; i++)
		fprintf(out, "unsupported %s %llu\n", st->unsup[i].name,
			(unsigned long long)st->unsup[i].count);
}
