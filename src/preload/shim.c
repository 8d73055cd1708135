/*
 * shim.c - the AF_IPX socket calls of the preloaded shim
 * (build/libipxlab-preload.so, run by `ipxlab run`): socket, bind,
 * connect, getsockname, getpeername, the send and receive calls (read,
 * write, readv, writev and the mmsg batches included), close and the dup
 * calls, with Linux af_ipx's errors.
 * Every other descriptor goes straight to libc. An IPX socket is a real
 * descriptor (one end of a SEQPACKET socketpair held by `ipxlab stack`),
 * so poll, select, epoll, O_NONBLOCK, fork and exec need no hooks.
 */
#include <errno.h>
#include <netipx/ipx.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "shim_int.h"

#define MAX_IOV 64

/* Fortified variants (_FORTIFY_SOURCE) call these instead. */
ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen);
ssize_t __recv_chk(int fd, void *buf, size_t n, size_t buflen, int flags);
ssize_t __recvfrom_chk(int fd, void *buf, size_t n, size_t buflen, int flags,
		       struct sockaddr *from, socklen_t *fromlen);

SHIM_API int socket(int domain, int type, int protocol)
{
	struct ipx_stack_req req = { .op = IPX_STACK_OPEN };
	int fd, err;

	NEXT(socket);
	if (domain != AF_IPX)
		return next_socket(domain, type, protocol);
	/* The protocol is ignored, as af_ipx did (0, AF_IPX, IPXPROTO_IPX). */
	if ((type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC)) != SOCK_DGRAM) {
		/* No stack: no IPX at all, whatever the type. */
		return shim_fail(shim_unsupported("socket:not_SOCK_DGRAM") < 0
					 ? EAFNOSUPPORT
					 : ESOCKTNOSUPPORT);
	}
	err = shim_ctl(&req, -1, NULL, 0, NULL, &fd, type & SOCK_CLOEXEC);
	if (err < 0)
		return shim_fail(EAFNOSUPPORT);
	if (err || fd < 0)
		return shim_fail(err ? err : ENOBUFS);
	if (type & SOCK_NONBLOCK)
		syscall(SYS_fcntl, fd, F_SETFL,
			syscall(SYS_fcntl, fd, F_GETFL) | O_NONBLOCK);
	/* Each datagram stamped on arrival, for SIOCGSTAMP. */
	syscall(SYS_setsockopt, fd, SOL_SOCKET, SO_TIMESTAMP, &(int){ 1 },
		sizeof(int));
	shim_mark(fd, true);
	return fd;
}

SHIM_API int socketpair(int domain, int type, int protocol, int sv[2])
{
	NEXT(socketpair);
	if (domain != AF_IPX)
		return next_socketpair(domain, type, protocol, sv);
	return shim_fail(shim_unsupported("socketpair") < 0 ? EAFNOSUPPORT
							    : EOPNOTSUPP);
}

/* The address argument of bind and connect: exactly a sockaddr_ipx.
 * The kernel copied it in first (move_addr_to_kernel: more than a
 * sockaddr_storage EINVAL, a bad pointer EFAULT), then af_ipx checked
 * its length. */
static int sipx_arg(const struct sockaddr *sa, socklen_t len,
		    struct ipx_stack_req *req)
{
	struct sockaddr_storage k;
	struct sockaddr_ipx s;

	if (len > sizeof(k))
		return EINVAL;
	if (len && shim_copy_in(&k, sa, len))
		return EFAULT;
	if (len != sizeof(s))
		return EINVAL;
	memcpy(&s, &k, sizeof(s));
	shim_from_sipx(&s, &req->addr);
	req->type = s.sipx_type;
	return 0;
}

SHIM_API int bind(int fd, __CONST_SOCKADDR_ARG arg, socklen_t len)
{
	const struct sockaddr *sa = arg.__sockaddr__;
	struct ipx_stack_req req = { .op = IPX_STACK_BIND };
	uint8_t b[IPX_STACK_ADDR_LEN];
	int err;

	NEXT(bind);
	if (!shim_ours(fd))
		return next_bind(fd, arg, len);
	if ((err = sipx_arg(sa, len, &req)) != 0)
		return shim_fail(err);
	err = shim_ctl(&req, fd, b, sizeof(b), NULL, NULL, false);
	return err ? shim_fail(err < 0 ? ENETDOWN : err) : 0;
}

SHIM_API int connect(int fd, __CONST_SOCKADDR_ARG arg, socklen_t len)
{
	const struct sockaddr *sa = arg.__sockaddr__;
	struct ipx_stack_req req = { .op = IPX_STACK_CONNECT };
	int err;

	NEXT(connect);
	if (!shim_ours(fd))
		return next_connect(fd, arg, len);
	if ((err = sipx_arg(sa, len, &req)) != 0)
		return shim_fail(err);
	err = shim_ctl(&req, fd, NULL, 0, NULL, NULL, false);
	if (err)
		return shim_fail(err < 0 ? ENETDOWN : err);
	shim_set_connected(fd, true);
	return 0;
}

SHIM_API int getsockname(int fd, __SOCKADDR_ARG arg, socklen_t *len)
{
	struct sockaddr *sa = arg.__sockaddr__;
	struct shim_info in;
	struct sockaddr_ipx s;
	int err;

	NEXT(getsockname);
	if (!shim_ours(fd))
		return next_getsockname(fd, arg, len);
	if ((err = shim_info(fd, &in)) != 0)
		return shim_fail(err);
	shim_to_sipx(&s, &in.local, in.type);
	err = shim_put_name(&s, sa, len);
	return err ? shim_fail(err) : 0;
}

SHIM_API int getpeername(int fd, __SOCKADDR_ARG arg, socklen_t *len)
{
	struct sockaddr *sa = arg.__sockaddr__;
	struct shim_info in;
	struct sockaddr_ipx s;
	int err;

	NEXT(getpeername);
	if (!shim_ours(fd))
		return next_getpeername(fd, arg, len);
	if ((err = shim_info(fd, &in)) != 0)
		return shim_fail(err);
	if (!(in.flags & IPX_STACK_INFO_CONNECTED))
		return shim_fail(ENOTCONN);
	shim_to_sipx(&s, &in.peer, in.type);
	err = shim_put_name(&s, sa, len);
	return err ? shim_fail(err) : 0;
}

/*
 * af_ipx refused a datagram for a network it had no route to with
 * ENETUNREACH at sendto() time. The stack sends asynchronously, so the
 * shim asks it (REACH) before the first datagram to a network and
 * remembers a yes for a second, per process: one request a second per
 * destination network, not per datagram. A no is never remembered.
 */
#define REACH_SLOTS 8
#define REACH_NS 1000000000LL

static struct {
	uint32_t net;
	long long until;	/* CLOCK_MONOTONIC, ns */
} reach_cache[REACH_SLOTS];

static long long mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * REACH_NS + t.tv_nsec;
}

/* 0, or the errno for sendto (ENETUNREACH; ENETDOWN without a stack). */
static int reachable(uint32_t net)
{
	struct ipx_stack_req req = { .op = IPX_STACK_REACH };
	long long now = mono_ns();
	unsigned slot = net % REACH_SLOTS;
	int err;

	if (net == 0 ||
	    (reach_cache[slot].net == net && reach_cache[slot].until > now))
		return 0;
	req.addr.net = net;
	err = shim_ctl(&req, -1, NULL, 0, NULL, NULL, false);
	if (err)
		return err < 0 ? ENETDOWN : err;
	reach_cache[slot].net = net;
	reach_cache[slot].until = now + REACH_NS;
	return 0;
}

/*
 * um->msg_iov (user_iov: the program's array, else the shim's own) into
 * iov[1..]; EFAULT when the program's array cannot be read.
 */
static int take_iov(struct iovec *iov, const struct msghdr *um, bool user_iov)
{
	size_t n = um->msg_iovlen * sizeof(*iov);

	if (!user_iov) {
		memcpy(iov, um->msg_iov, n);
		return 0;
	}
	return shim_copy_in(iov, um->msg_iov, n);
}

/* sendmsg for an IPX socket: a SEND frame, the payload gathered. */
static ssize_t ipx_send(int fd, const struct msghdr *um, int flags,
			bool user_iov)
{
	struct ipx_stack_frame f = { .op = IPX_STACK_SEND };
	uint8_t head[IPX_STACK_FRAME_HDR];
	struct iovec iov[MAX_IOV + 1];
	struct msghdr m = { .msg_iov = iov };
	struct sockaddr_storage name;
	uint8_t *bounce = NULL;
	size_t total = 0;
	ssize_t n;
	int err;

	/* The kernel copied the name in before af_ipx looked at anything
	 * (EFAULT first). */
	if (um->msg_name) {
		size_t nl = um->msg_namelen < sizeof(name) ? um->msg_namelen
							    : sizeof(name);

		if (shim_copy_in(&name, um->msg_name, nl))
			return shim_fail(EFAULT);
	}
	if (flags & ~MSG_DONTWAIT)
		return shim_fail(EINVAL);
	if (um->msg_name) {
		struct sockaddr_ipx s;

		if (um->msg_namelen < sizeof(s))
			return shim_fail(EINVAL);
		memcpy(&s, &name, sizeof(s));
		if (s.sipx_family != AF_IPX)
			return shim_fail(EINVAL);
		shim_from_sipx(&s, &f.addr);
		f.type = s.sipx_type;
		f.flags = IPX_STACK_F_ADDR | IPX_STACK_F_TYPE;
		if ((err = reachable(f.addr.net)) != 0)
			return shim_fail(err);
	} else if (!shim_connected(fd)) {
		struct shim_info in;

		err = shim_info(fd, &in);
		if (err)
			return shim_fail(err);
		if (!(in.flags & IPX_STACK_INFO_CONNECTED))
			return shim_fail(ENOTCONN);
	}
	if (um->msg_iovlen <= MAX_IOV) {
		if (take_iov(iov + 1, um, user_iov))
			return shim_fail(EFAULT);
		for (size_t i = 0; i < um->msg_iovlen; i++)
			total += iov[1 + i].iov_len;
		m.msg_iovlen = 1 + um->msg_iovlen;
	} else {	/* too many pieces: gather them here */
		struct iovec *v = malloc(um->msg_iovlen * sizeof(*v));
		size_t at = 0;

		if (!v)
			return shim_fail(ENOBUFS);
		if (take_iov(v, um, user_iov)) {
			free(v);
			return shim_fail(EFAULT);
		}
		for (size_t i = 0; i < um->msg_iovlen; i++)
			total += v[i].iov_len;
		bounce = total <= IPX_STACK_MAX_PAYLOAD ? malloc(total ? total : 1)
							: NULL;
		for (size_t i = 0; bounce && i < um->msg_iovlen; i++) {
			if (shim_copy_in(bounce + at, v[i].iov_base,
					 v[i].iov_len)) {
				free(v);
				free(bounce);
				return shim_fail(EFAULT);
			}
			at += v[i].iov_len;
		}
		free(v);
		if (!bounce && total <= IPX_STACK_MAX_PAYLOAD)
			return shim_fail(ENOBUFS);
		iov[1].iov_base = bounce;
		iov[1].iov_len = total;
		m.msg_iovlen = 2;
	}
	if (total > IPX_STACK_MAX_PAYLOAD) {
		free(bounce);
		return shim_fail(EMSGSIZE);
	}
	ipx_stack_frame_encode(head, &f);
	iov[0].iov_base = head;
	iov[0].iov_len = sizeof(head);
	n = syscall(SYS_sendmsg, fd, &m, (flags & MSG_DONTWAIT) | MSG_NOSIGNAL);
	free(bounce);
	if (n < 0)
		return shim_fail(errno == EPIPE || errno == ECONNRESET
					 ? ENETDOWN
					 : errno);
	return n - (ssize_t)sizeof(head);
}

/*
 * recvmsg for an IPX socket: the DATA frame's header gives the source.
 * um is the shim's own msghdr (its msg_iov the program's array when
 * user_iov); the name goes to the program's um->msg_name, cut to
 * um->msg_namelen, and 16 to the program's *user_len too when given
 * (recvfrom). A name that cannot be written is EFAULT once the datagram
 * is taken, as the kernel's move_addr_to_user made it.
 */
static ssize_t ipx_recv(int fd, struct msghdr *um, int flags, bool user_iov,
			socklen_t *user_len)
{
	uint8_t head[IPX_STACK_FRAME_HDR];
	struct iovec iov[MAX_IOV + 1];
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(struct timeval))];
	} c;
	struct msghdr m = { .msg_iov = iov, .msg_control = c.space,
			    .msg_controllen = sizeof(c.space) };
	struct ipx_stack_frame f;
	ssize_t n;

	iov[0].iov_base = head;
	iov[0].iov_len = sizeof(head);
	if (um->msg_iovlen > MAX_IOV)
		return shim_fail(EMSGSIZE);
	if (take_iov(iov + 1, um, user_iov))
		return shim_fail(EFAULT);
	m.msg_iovlen = 1 + um->msg_iovlen;
	n = syscall(SYS_recvmsg, fd, &m, flags & (MSG_DONTWAIT | MSG_PEEK));
	if (n < 0)
		return -1;
	if (n == 0)	/* the stack went away */
		return shim_fail(ENETDOWN);
	if (ipx_stack_frame_decode(head, (size_t)n, &f) != 0 ||
	    f.op != IPX_STACK_DATA)
		return shim_fail(EIO);
	for (struct cmsghdr *h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h))
		if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_TIMESTAMP &&
		    h->cmsg_len >= CMSG_LEN(sizeof(struct timeval))) {
			struct timeval tv;

			memcpy(&tv, CMSG_DATA(h), sizeof(tv));
			shim_set_stamp(fd, &tv);
		}
	um->msg_flags = m.msg_flags & MSG_TRUNC;
	um->msg_controllen = 0;
	if (um->msg_name) {
		struct sockaddr_ipx s;
		int err;

		shim_to_sipx(&s, &f.addr, f.type);
		err = shim_put_name_len(&s, um->msg_name, um->msg_namelen,
					&um->msg_namelen, user_len);
		if (err)
			return shim_fail(err);
	}
	return n - (ssize_t)sizeof(head);
}

SHIM_API ssize_t sendmsg(int fd, const struct msghdr *m, int flags)
{
	struct msghdr km;

	NEXT(sendmsg);
	if (!shim_ours(fd))
		return next_sendmsg(fd, m, flags);
	if (shim_copy_in(&km, m, sizeof(km)))
		return shim_fail(EFAULT);
	return ipx_send(fd, &km, flags, true);
}

SHIM_API ssize_t sendto(int fd, const void *buf, size_t len, int flags,
			__CONST_SOCKADDR_ARG arg, socklen_t tolen)
{
	const struct sockaddr *to = arg.__sockaddr__;
	struct iovec iov = { (void *)buf, len };
	struct msghdr m = { .msg_name = (void *)to, .msg_namelen = tolen,
			    .msg_iov = &iov, .msg_iovlen = 1 };

	NEXT(sendto);
	if (!shim_ours(fd))
		return next_sendto(fd, buf, len, flags, arg, tolen);
	return ipx_send(fd, &m, flags, false);
}

SHIM_API ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	struct iovec iov = { (void *)buf, len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };

	NEXT(send);
	if (!shim_ours(fd))
		return next_send(fd, buf, len, flags);
	return ipx_send(fd, &m, flags, false);
}

SHIM_API ssize_t write(int fd, const void *buf, size_t len)
{
	struct iovec iov = { (void *)buf, len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };

	NEXT(write);
	if (!shim_ours(fd))
		return next_write(fd, buf, len);
	return ipx_send(fd, &m, 0, false);
}

/* The program's msghdr read and written back through the kernel. */
static ssize_t user_recvmsg(int fd, struct msghdr *m, int flags)
{
	struct msghdr km;
	ssize_t n;

	if (shim_copy_in(&km, m, sizeof(km)))
		return shim_fail(EFAULT);
	n = ipx_recv(fd, &km, flags, true, NULL);
	if (n >= 0 && shim_copy_out(m, &km, sizeof(km)))
		return shim_fail(EFAULT);
	return n;
}

SHIM_API ssize_t recvmsg(int fd, struct msghdr *m, int flags)
{
	NEXT(recvmsg);
	if (!shim_ours(fd))
		return next_recvmsg(fd, m, flags);
	return user_recvmsg(fd, m, flags);
}

SHIM_API ssize_t recvfrom(int fd, void *buf, size_t len, int flags,
			  __SOCKADDR_ARG arg, socklen_t *fromlen)
{
	struct sockaddr *from = arg.__sockaddr__;
	struct iovec iov = { buf, len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	bool badlen = false;
	ssize_t n;

	NEXT(recvfrom);
	if (!shim_ours(fd))
		return next_recvfrom(fd, buf, len, flags, arg, fromlen);
	/* With a name, the kernel read *fromlen after taking the datagram:
	 * a bad pointer there (or none) is EFAULT, the datagram gone. */
	if (from && shim_copy_in(&m.msg_namelen, fromlen,
				 sizeof(m.msg_namelen)))
		badlen = true;
	m.msg_name = badlen ? NULL : from;
	n = ipx_recv(fd, &m, flags, false, from ? fromlen : NULL);
	if (n >= 0 && badlen)
		return shim_fail(EFAULT);
	return n;
}

SHIM_API ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	return recvfrom(fd, buf, len, flags, NULL, NULL);
}

SHIM_API ssize_t read(int fd, void *buf, size_t len)
{
	NEXT(read);
	if (!shim_ours(fd))
		return next_read(fd, buf, len);
	return recvfrom(fd, buf, len, 0, NULL, NULL);
}

SHIM_API ssize_t writev(int fd, const struct iovec *iov, int n)
{
	struct msghdr m = { .msg_iov = (struct iovec *)iov,
			    .msg_iovlen = n > 0 ? (size_t)n : 0 };

	NEXT(writev);
	if (!shim_ours(fd))
		return next_writev(fd, iov, n);
	return ipx_send(fd, &m, 0, true);
}

SHIM_API ssize_t readv(int fd, const struct iovec *iov, int n)
{
	struct msghdr m = { .msg_iov = (struct iovec *)iov,
			    .msg_iovlen = n > 0 ? (size_t)n : 0 };

	NEXT(readv);
	if (!shim_ours(fd))
		return next_readv(fd, iov, n);
	return ipx_recv(fd, &m, 0, true, NULL);
}

/* The batch calls, one datagram per entry as the kernel did them. */
SHIM_API int sendmmsg(int fd, struct mmsghdr *v, unsigned n, int flags)
{
	unsigned i;

	NEXT(sendmmsg);
	if (!shim_ours(fd))
		return next_sendmmsg(fd, v, n, flags);
	for (i = 0; i < n; i++) {
		struct mmsghdr k;
		ssize_t r = shim_copy_in(&k, &v[i], sizeof(k))
				    ? shim_fail(EFAULT)
				    : ipx_send(fd, &k.msg_hdr, flags, true);

		if (r < 0)
			return i ? (int)i : -1;
		k.msg_len = (unsigned)r;
		if (shim_copy_out(&v[i].msg_len, &k.msg_len,
				  sizeof(k.msg_len)))
			return i ? (int)i : shim_fail(EFAULT);
	}
	return (int)i;
}

SHIM_API int recvmmsg(int fd, struct mmsghdr *v, unsigned n, int flags,
		      struct timespec *timeout)
{
	unsigned i;

	NEXT(recvmmsg);
	if (!shim_ours(fd))
		return next_recvmmsg(fd, v, n, flags, timeout);
	for (i = 0; i < n; i++) {
		/* After the first, take only what is waiting. */
		struct mmsghdr k;
		ssize_t r = shim_copy_in(&k, &v[i], sizeof(k))
				    ? shim_fail(EFAULT)
				    : ipx_recv(fd, &k.msg_hdr,
					       i ? flags | MSG_DONTWAIT : flags,
					       true, NULL);

		if (r < 0)
			return i ? (int)i : -1;
		k.msg_len = (unsigned)r;
		if (shim_copy_out(&v[i], &k, sizeof(k)))
			return i ? (int)i : shim_fail(EFAULT);
	}
	return (int)i;
}

SHIM_API ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen)
{
	if (n > buflen)
		abort();
	return read(fd, buf, n);
}

SHIM_API ssize_t __recv_chk(int fd, void *buf, size_t n, size_t buflen,
			    int flags)
{
	if (n > buflen)
		abort();
	return recvfrom(fd, buf, n, flags, NULL, NULL);
}

SHIM_API ssize_t __recvfrom_chk(int fd, void *buf, size_t n, size_t buflen,
				int flags, struct sockaddr *from,
				socklen_t *fromlen)
{
	if (n > buflen)
		abort();
	return recvfrom(fd, buf, n, flags, from, fromlen);
}

SHIM_API int close(int fd)
{
	NEXT(close);
	shim_forget(fd);
	return next_close(fd);
}

SHIM_API int dup(int fd)
{
	int r;

	NEXT(dup);
	r = next_dup(fd);
	shim_forget(r);
	return r;
}

SHIM_API int dup2(int fd, int to)
{
	NEXT(dup2);
	if (fd != to)
		shim_forget(to);
	return next_dup2(fd, to);
}

SHIM_API int dup3(int fd, int to, int flags)
{
	NEXT(dup3);
	shim_forget(to);
	return next_dup3(fd, to, flags);
}

/* Calls a datagram socket of af_ipx refused (sock_no_*). */
SHIM_API int listen(int fd, int backlog)
{
	NEXT(listen);
	if (!shim_ours(fd))
		return next_listen(fd, backlog);
	shim_unsupported("listen");
	return shim_fail(EOPNOTSUPP);
}

SHIM_API int accept(int fd, __SOCKADDR_ARG arg, socklen_t *len)
{
	NEXT(accept);
	if (!shim_ours(fd))
		return next_accept(fd, arg, len);
	shim_unsupported("accept");
	return shim_fail(EOPNOTSUPP);
}

SHIM_API int accept4(int fd, __SOCKADDR_ARG arg, socklen_t *len,
		     int flags)
{
	NEXT(accept4);
	if (!shim_ours(fd))
		return next_accept4(fd, arg, len, flags);
	shim_unsupported("accept4");
	return shim_fail(EOPNOTSUPP);
}

SHIM_API int shutdown(int fd, int how)
{
	NEXT(shutdown);
	if (!shim_ours(fd))
		return next_shutdown(fd, how);
	shim_unsupported("shutdown");
	return shim_fail(EOPNOTSUPP);
}
