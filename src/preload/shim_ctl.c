/*
 * shim_ctl.c - the shim's plumbing: which descriptors are IPX sockets
 * (a small cache, and the peer's abstract name "ipxlab-stack/..." that
 * the stack gives its end of every socket), the one-request control
 * connection to the stack, and sockaddr_ipx conversions. Raw system
 * calls only, so nothing here passes back through the shim's own hooks.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netipx/ipx.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "shim_int.h"

#define SHIM_FDS 65536
#define PEER_PREFIX "ipxlab-stack/"

enum { FD_UNKNOWN, FD_OURS, FD_OTHER };

/* Per descriptor: FD_* in the low bits, 4 = connected (fd < SHIM_FDS). */
static uint8_t fd_state[SHIM_FDS];
/* When the last datagram read on it arrived (SIOCGSTAMP), fd < 4096. */
#define SHIM_STAMP_FDS 4096
static struct timeval fd_stamp[SHIM_STAMP_FDS];

void shim_set_stamp(int fd, const struct timeval *tv)
{
	if (fd >= 0 && fd < SHIM_STAMP_FDS)
		fd_stamp[fd] = *tv;
}

int shim_stamp(int fd, struct timeval *out)
{
	if (fd < 0 || fd >= SHIM_STAMP_FDS ||
	    (!fd_stamp[fd].tv_sec && !fd_stamp[fd].tv_usec))
		return ENOENT;	/* nothing received yet, as sock_get_timestamp */
	*out = fd_stamp[fd];
	return 0;
}

int shim_fail(int err)
{
	errno = err;
	return -1;
}

static bool probe(int fd)
{
	struct sockaddr_un sa;
	socklen_t len = sizeof(sa);
	int saved = errno;
	bool ours;

	memset(&sa, 0, sizeof(sa));
	ours = syscall(SYS_getpeername, fd, &sa, &len) == 0 &&
	       sa.sun_family == AF_UNIX &&
	       len > offsetof(struct sockaddr_un, sun_path) + 1 +
			     strlen(PEER_PREFIX) &&
	       sa.sun_path[0] == '\0' &&
	       !memcmp(sa.sun_path + 1, PEER_PREFIX, strlen(PEER_PREFIX));
	errno = saved;
	return ours;
}

bool shim_ours(int fd)
{
	uint8_t s;

	if (fd < 0)
		return false;
	if (fd >= SHIM_FDS)
		return probe(fd);
	s = fd_state[fd] & 3;
	if (s == FD_UNKNOWN) {
		s = probe(fd) ? FD_OURS : FD_OTHER;
		fd_state[fd] = s;
	}
	return s == FD_OURS;
}

void shim_mark(int fd, bool ours)
{
	if (fd >= 0 && fd < SHIM_FDS)
		fd_state[fd] = ours ? FD_OURS : FD_OTHER;
}

void shim_forget(int fd)
{
	if (fd >= 0 && fd < SHIM_FDS)
		fd_state[fd] = FD_UNKNOWN;
	if (fd >= 0 && fd < SHIM_STAMP_FDS)
		fd_stamp[fd].tv_sec = fd_stamp[fd].tv_usec = 0;
}

bool shim_connected(int fd)
{
	return fd >= 0 && fd < SHIM_FDS && (fd_state[fd] & 4);
}

void shim_set_connected(int fd, bool on)
{
	if (fd >= 0 && fd < SHIM_FDS)
		fd_state[fd] = (uint8_t)((fd_state[fd] & 3) | (on ? 4 : 0));
}

static int connect_stack(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int c;

	if (ipx_stack_default_path(sa.sun_path, sizeof(sa.sun_path)) < 0)
		return -1;
	c = (int)syscall(SYS_socket, AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (c < 0)
		return -1;
	if (syscall(SYS_connect, c, &sa, sizeof(sa)) < 0) {
		syscall(SYS_close, c);
		return -1;
	}
	return c;
}

int shim_ctl(const struct ipx_stack_req *req, int fd, uint8_t *body,
	     size_t cap, size_t *len, int *got, bool cloexec)
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(int))];
	} c;
	uint8_t out[64], head[IPX_STACK_REPLY_HDR];
	struct iovec iov[2] = { { out, 0 }, { body, cap } };
	struct msghdr m = { .msg_iov = iov, .msg_iovlen = 1 };
	struct ipx_stack_reply rep;
	int saved = errno, s;
	ssize_t n;

	if (got)
		*got = -1;
	iov[0].iov_len = ipx_stack_req_encode(req, out, sizeof(out));
	if (!iov[0].iov_len || (s = connect_stack()) < 0) {
		errno = saved;
		return -1;
	}
	memset(&c, 0, sizeof(c));
	if (fd >= 0) {
		m.msg_control = c.space;
		m.msg_controllen = sizeof(c.space);
		c.h.cmsg_level = SOL_SOCKET;
		c.h.cmsg_type = SCM_RIGHTS;
		c.h.cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(&c.h), &fd, sizeof(int));
	}
	do
		n = syscall(SYS_sendmsg, s, &m, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	/* The reply: header, then the body straight into the caller's
	 * buffer. */
	iov[0].iov_base = head;
	iov[0].iov_len = sizeof(head);
	m.msg_iovlen = 2;
	memset(&c, 0, sizeof(c));
	m.msg_control = c.space;
	m.msg_controllen = sizeof(c.space);
	m.msg_flags = 0;
	if (n >= 0) {
		do
			n = syscall(SYS_recvmsg, s, &m,
				    cloexec ? MSG_CMSG_CLOEXEC : 0);
		while (n < 0 && errno == EINTR);
	}
	syscall(SYS_close, s);
	errno = saved;
	if (n < (ssize_t)sizeof(head) ||
	    ipx_stack_reply_decode(head, sizeof(head), &rep) != 0 ||
	    rep.op != req->op)
		return -1;
	for (struct cmsghdr *h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h)) {
		if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_RIGHTS &&
		    h->cmsg_len >= CMSG_LEN(sizeof(int))) {
			int r;

			memcpy(&r, CMSG_DATA(h), sizeof(int));
			if (got && *got < 0)
				*got = r;
			else
				syscall(SYS_close, r);
		}
	}
	if (len)
		*len = (size_t)n - sizeof(head);
	return (int)rep.err;
}

int shim_unsupported(const char *name)
{
	struct ipx_stack_req req = { .op = IPX_STACK_UNSUPPORTED };

	snprintf(req.name, sizeof(req.name), "%s", name);
	return shim_ctl(&req, -1, NULL, 0, NULL, NULL, false);
}

int shim_info(int fd, struct shim_info *out)
{
	struct ipx_stack_req req = { .op = IPX_STACK_INFO };
	uint8_t b[64];
	size_t len = 0;
	int err = shim_ctl(&req, fd, b, sizeof(b), &len, NULL, false);

	if (err < 0)
		return ENETDOWN;
	if (err)
		return err;
	if (len < 4 + 2 * IPX_STACK_ADDR_LEN)
		return EIO;
	out->flags = b[0];
	out->type = b[1];
	ipx_stack_get_addr(b + 4, &out->local);
	ipx_stack_get_addr(b + 16, &out->peer);
	shim_set_connected(fd, out->flags & IPX_STACK_INFO_CONNECTED);
	return 0;
}

void shim_to_sipx(struct sockaddr_ipx *s, const struct ipx_addr *a,
		  uint8_t type)
{
	memset(s, 0, sizeof(*s));
	s->sipx_family = AF_IPX;
	s->sipx_network = htonl(a->net);
	memcpy(s->sipx_node, a->node, IPX_NODE_LEN);
	s->sipx_port = htons(a->socket);
	s->sipx_type = type;
}

void shim_from_sipx(const struct sockaddr_ipx *s, struct ipx_addr *a)
{
	a->net = ntohl(s->sipx_network);
	memcpy(a->node, s->sipx_node, IPX_NODE_LEN);
	a->socket = ntohs(s->sipx_port);
}

/*
 * Copies between the shim and a pointer the program gave, through the
 * kernel, so that a bad pointer is EFAULT, as copy_from_user and
 * copy_to_user made it, and not a SIGSEGV in the shim: process_vm_readv
 * and process_vm_writev on the process itself (one system call for
 * several pieces), or, where those are refused (a seccomp filter, an old
 * kernel), a write to and a read from a fresh pipe. 'out' copies to the
 * program's pointers (remote), else from them.
 */
static int vm_state;	/* 0 not decided, 1 process_vm_*, 2 the pipe */

static int copy_pipe(bool out, const struct iovec *local,
		     const struct iovec *remote, int n)
{
	int p[2], err = 0;

	if (syscall(SYS_pipe2, p, O_CLOEXEC) < 0)
		return EFAULT;
	for (int i = 0; i < n && !err; i++) {
		const void *from = out ? local[i].iov_base : remote[i].iov_base;
		void *to = out ? remote[i].iov_base : local[i].iov_base;
		size_t len = local[i].iov_len;

		/* At most a sockaddr or an iovec array: within PIPE_BUF. */
		if (syscall(SYS_write, p[1], from, len) != (long)len ||
		    syscall(SYS_read, p[0], to, len) != (long)len)
			err = EFAULT;
	}
	syscall(SYS_close, p[0]);
	syscall(SYS_close, p[1]);
	return err;
}

static int copy_user(bool out, const struct iovec *local,
		     const struct iovec *remote, int n)
{
	size_t total = 0;
	long r;

	for (int i = 0; i < n; i++)
		total += local[i].iov_len;
	if (!total)
		return 0;
	if (!vm_state) {
		/* IPXLAB_SHIM_COPY=pipe: the fallback, for its test. */
		const char *how = getenv("IPXLAB_SHIM_COPY");

		vm_state = how && !strcmp(how, "pipe") ? 2 : 1;
	}
	if (vm_state == 1) {
		int saved = errno;

		r = syscall(out ? SYS_process_vm_writev : SYS_process_vm_readv,
			    syscall(SYS_getpid), local, (unsigned long)n,
			    remote, (unsigned long)n, 0UL);
		if (r == (long)total)
			return 0;
		if (r >= 0 || errno == EFAULT) {
			errno = saved;
			return EFAULT;
		}
		errno = saved;
		vm_state = 2;	/* ENOSYS, EPERM: use a pipe */
	}
	return copy_pipe(out, local, remote, n);
}

int shim_copy_in(void *dst, const void *user, size_t n)
{
	struct iovec l = { dst, n }, r = { (void *)user, n };

	return copy_user(false, &l, &r, 1);
}

int shim_copy_out(void *user, const void *src, size_t n)
{
	struct iovec l = { (void *)src, n }, r = { user, n };

	return copy_user(true, &l, &r, 1);
}

int shim_put_name(const struct sockaddr_ipx *s, struct sockaddr *to,
		  socklen_t *len)
{
	socklen_t want, full = sizeof(*s);
	struct iovec l[2], r[2];

	if (shim_copy_in(&want, len, sizeof(want)))
		return EFAULT;
	if ((int)want < 0)
		return EINVAL;
	if (want > full)
		want = full;
	l[0] = (struct iovec){ (void *)s, want };
	r[0] = (struct iovec){ to, want };
	l[1] = (struct iovec){ &full, sizeof(full) };
	r[1] = (struct iovec){ len, sizeof(full) };
	return copy_user(true, want ? l : l + 1, want ? r : r + 1,
			 want ? 2 : 1);
}

int shim_put_name_len(const struct sockaddr_ipx *s, struct sockaddr *to,
		      socklen_t want, socklen_t *len_out, socklen_t *user_len)
{
	socklen_t full = sizeof(*s);
	struct iovec l[2], r[2];
	int n = 0;

	if ((int)want < 0)
		return EINVAL;
	if (want > full)
		want = full;
	if (want) {
		l[n] = (struct iovec){ (void *)s, want };
		r[n++] = (struct iovec){ to, want };
	}
	if (user_len) {
		l[n] = (struct iovec){ &full, sizeof(full) };
		r[n++] = (struct iovec){ user_len, sizeof(full) };
	}
	if (len_out)
		*len_out = full;
	return n ? copy_user(true, l, r, n) : 0;
}
