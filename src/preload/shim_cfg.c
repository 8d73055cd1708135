/*
 * shim_cfg.c - the configuration side of the shim: SOL_IPX/IPX_TYPE and
 * the SOL_SOCKET answers a datagram socket gives, the af_ipx ioctls
 * (interfaces, auto-configuration, routes, queue sizes), and opening the
 * /proc/net/ipx files (2.6 names and the flat 2.0-2.4 ones), whose text
 * the stack writes into a memfd.
 */
#include <arpa/inet.h>
#include <linux/sockios.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <net/route.h>
#include <netipx/ipx.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "shim_int.h"

#define PROC_MAX IPX_STACK_MAX_CTL

/* Fortified open (_FORTIFY_SOURCE). */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);

SHIM_API int setsockopt(int fd, int level, int name, const void *val,
			socklen_t len)
{
	struct ipx_stack_req req = { .op = IPX_STACK_SETTYPE };
	char what[IPX_STACK_NAMELEN];
	int v, err;

	NEXT(setsockopt);
	if (!shim_ours(fd) || level == SOL_SOCKET)
		return next_setsockopt(fd, level, name, val, len);
	if (level != SOL_IPX || name != IPX_TYPE) {
		snprintf(what, sizeof(what), "setsockopt:%d:%d", level, name);
		shim_unsupported(what);
		return shim_fail(ENOPROTOOPT);
	}
	if (len < sizeof(int) || !val)
		return shim_fail(EINVAL);
	memcpy(&v, val, sizeof(v));
	req.type = (uint8_t)v;
	err = shim_ctl(&req, fd, NULL, 0, NULL, NULL, false);
	return err ? shim_fail(err < 0 ? ENETDOWN : err) : 0;
}

SHIM_API int getsockopt(int fd, int level, int name, void *val,
			socklen_t *len)
{
	char what[IPX_STACK_NAMELEN];
	struct shim_info in;
	int v, err;

	NEXT(getsockopt);
	if (!shim_ours(fd))
		return next_getsockopt(fd, level, name, val, len);
	if (level == SOL_SOCKET) {
		/* What an af_ipx socket says it is, not the socketpair. */
		if (name == SO_TYPE)
			v = SOCK_DGRAM;
		else if (name == SO_DOMAIN)
			v = AF_IPX;
		else
			return next_getsockopt(fd, level, name, val, len);
	} else if (level == SOL_IPX && name == IPX_TYPE) {
		if ((err = shim_info(fd, &in)) != 0)
			return shim_fail(err);
		v = in.type;
	} else {
		snprintf(what, sizeof(what), "getsockopt:%d:%d", level, name);
		shim_unsupported(what);
		return shim_fail(ENOPROTOOPT);
	}
	if (!len || !val || (int)*len < 0)
		return shim_fail(EINVAL);
	if (*len > sizeof(int))
		*len = sizeof(int);
	memcpy(val, &v, *len);
	return 0;
}

/* Send an ioctl's request; the stack's errno, ENETDOWN without one. */
static int ctl_err(const struct ipx_stack_req *req, uint8_t *body,
		   size_t cap, size_t *len)
{
	int err = shim_ctl(req, -1, body, cap, len, NULL, false);

	return err < 0 ? ENETDOWN : err;
}

static int ifreq_req(const struct ifreq *ifr, struct ipx_stack_req *req)
{
	struct sockaddr_ipx s;

	memcpy(&s, &ifr->ifr_addr, sizeof(s));
	if (strnlen(ifr->ifr_name, IFNAMSIZ) >= IFNAMSIZ)
		return EINVAL;
	snprintf(req->dev, sizeof(req->dev), "%s", ifr->ifr_name);
	req->addr.net = ntohl(s.sipx_network);
	memcpy(req->addr.node, s.sipx_node, IPX_NODE_LEN);
	req->special = (uint8_t)s.sipx_special;
	req->type = s.sipx_type;
	req->action = s.sipx_action;
	return s.sipx_family == AF_IPX ? 0 : EINVAL;
}

static int ioctl_if(unsigned long cmd, struct ifreq *ifr)
{
	struct ipx_stack_req req = { .op = cmd == SIOCSIFADDR ? IPX_STACK_IFSET
							      : IPX_STACK_IFGET };
	uint8_t b[16];
	size_t len = 0;
	struct sockaddr_ipx s;
	int err;

	if (!ifr)
		return EFAULT;
	err = ifreq_req(ifr, &req);
	if (err && cmd == SIOCSIFADDR)
		return err;
	if ((err = ctl_err(&req, b, sizeof(b), &len)) != 0)
		return err;
	if (cmd == SIOCGIFADDR) {
		struct ipx_addr a = { .net = ipx_get32(b) };

		if (len < 10)
			return EIO;
		memcpy(a.node, b + 4, IPX_NODE_LEN);
		memcpy(&s, &ifr->ifr_addr, sizeof(s));
		s.sipx_family = AF_IPX;
		s.sipx_network = htonl(a.net);
		memcpy(s.sipx_node, a.node, IPX_NODE_LEN);
		memcpy(&ifr->ifr_addr, &s, sizeof(s));
	}
	return 0;
}

static int ioctl_route(unsigned long cmd, const struct rtentry *rt)
{
	struct ipx_stack_req req = { .op = IPX_STACK_ROUTE,
				     .action = cmd == SIOCADDRT };
	struct sockaddr_ipx dst, gw;

	if (!rt)
		return EFAULT;
	memcpy(&dst, &rt->rt_dst, sizeof(dst));
	memcpy(&gw, &rt->rt_gateway, sizeof(gw));
	if (!(rt->rt_flags & RTF_GATEWAY) || dst.sipx_family != AF_IPX ||
	    gw.sipx_family != AF_IPX)
		return EINVAL;
	req.addr.net = ntohl(dst.sipx_network);
	shim_from_sipx(&gw, &req.gw);
	return ctl_err(&req, NULL, 0, NULL);
}

/* TIOCINQ: the next datagram's payload; TIOCOUTQ: send space left. */
static int ioctl_queue(int fd, unsigned long cmd, int *out)
{
	uint8_t head[IPX_STACK_FRAME_HDR];
	int sndbuf = 0, queued = 0;
	socklen_t l = sizeof(sndbuf);
	ssize_t n;

	if (!out)
		return EFAULT;
	if (cmd == TIOCINQ) {
		n = syscall(SYS_recvfrom, fd, head, sizeof(head),
			    MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT, NULL, NULL);
		*out = n >= (ssize_t)sizeof(head) ? (int)(n - (ssize_t)sizeof(head))
						  : 0;
		return 0;
	}
	syscall(SYS_getsockopt, fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, &l);
	if (syscall(SYS_ioctl, fd, TIOCOUTQ, &queued) < 0)
		queued = 0;
	*out = sndbuf > queued ? sndbuf - queued : 0;
	return 0;
}

static int ioctl_ipx(int fd, unsigned long cmd, void *arg)
{
	struct ipx_stack_req req = { 0 };
	uint8_t b[4];
	size_t len = 0;
	int err;

	switch (cmd) {
	case SIOCSIFADDR:
	case SIOCGIFADDR:
		return ioctl_if(cmd, arg);
	case SIOCADDRT:
	case SIOCDELRT:
		return ioctl_route(cmd, arg);
	case TIOCINQ:
	case TIOCOUTQ:
		return ioctl_queue(fd, cmd, arg);
	case SIOCAIPXITFCRT:
	case SIOCAIPXPRISLT:
		if (!arg)
			return EFAULT;
		req.op = IPX_STACK_CFGSET;
		req.which = cmd == SIOCAIPXPRISLT;
		req.value = *(unsigned char *)arg;
		return ctl_err(&req, NULL, 0, NULL);
	case SIOCIPXCFGDATA: {
		ipx_config_data cd;

		if (!arg)
			return EFAULT;
		req.op = IPX_STACK_CFGGET;
		if ((err = ctl_err(&req, b, sizeof(b), &len)) != 0)
			return err;
		if (len < 2)
			return EIO;
		cd.ipxcfg_auto_select_primary = b[0];
		cd.ipxcfg_auto_create_interfaces = b[1];
		memcpy(arg, &cd, sizeof(cd));
		return 0;
	}
	case SIOCIPXNCPCONN:	/* accepted, without mars_nwe's NCP hook */
		shim_unsupported("ioctl:SIOCIPXNCPCONN");
		return 0;
	case SIOCGSTAMP: {
		struct timeval tv;

		if (!arg)
			return EFAULT;
		if ((err = shim_stamp(fd, &tv)) != 0)
			return err;
		memcpy(arg, &tv, sizeof(tv));
		return 0;
	}
	case SIOCGIFDSTADDR:
	case SIOCSIFDSTADDR:
	case SIOCGIFBRDADDR:
	case SIOCSIFBRDADDR:
	case SIOCGIFNETMASK:
	case SIOCSIFNETMASK:
		return EINVAL;
	default:
		return -1;	/* the generic socket layer's (device ioctls) */
	}
}

SHIM_API int ioctl(int fd, unsigned long cmd, ...)
{
	va_list ap;
	void *arg;
	int err;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	NEXT(ioctl);
	if (!shim_ours(fd))
		return next_ioctl(fd, cmd, arg);
	err = ioctl_ipx(fd, cmd, arg);
	if (err < 0)
		return next_ioctl(fd, cmd, arg);
	return err ? shim_fail(err) : 0;
}

/* Which /proc/net/ipx file a path names, or -1. */
static int proc_file(const char *path)
{
	static const struct {
		const char *path;
		int which;
	} names[] = {
		{ "/proc/net/ipx/interface", IPX_STACK_PROC_INTERFACE },
		{ "/proc/net/ipx/route", IPX_STACK_PROC_ROUTE },
		{ "/proc/net/ipx/socket", IPX_STACK_PROC_SOCKET },
		{ "/proc/net/ipx_interface", IPX_STACK_PROC_INTERFACE },
		{ "/proc/net/ipx_route", IPX_STACK_PROC_ROUTE },
		{ "/proc/net/ipx", IPX_STACK_PROC_SOCKET },
	};

	if (!path || strncmp(path, "/proc/net/ipx", 13) != 0)
		return -1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(path, names[i].path))
			return names[i].which;
	return -1;
}

/* A descriptor reading the file's text, or -1 (errno kept) without a
 * stack, so the caller falls back to the real file. */
static int proc_open(int which, bool cloexec)
{
	struct ipx_stack_req req = { .op = IPX_STACK_PROC,
				     .which = (uint8_t)which };
	size_t len = 0;
	uint8_t *text = malloc(PROC_MAX);
	int fd = -1, saved = errno;

	if (text && shim_ctl(&req, -1, text, PROC_MAX, &len, NULL, false) == 0) {
		fd = (int)syscall(SYS_memfd_create, "ipxlab-proc",
				  cloexec ? MFD_CLOEXEC : 0);
		if (fd >= 0 &&
		    (syscall(SYS_write, fd, text, len) != (long)len ||
		     syscall(SYS_lseek, fd, 0, SEEK_SET) != 0)) {
			syscall(SYS_close, fd);
			fd = -1;
		}
	}
	free(text);
	errno = saved;
	if (fd >= 0)
		shim_mark(fd, false);
	return fd;
}

static int open_common(const char *path, int flags)
{
	int which = proc_file(path);

	if (which < 0 || (flags & O_ACCMODE) != O_RDONLY)
		return -1;
	return proc_open(which, flags & O_CLOEXEC);
}

#define OPEN_MODE(flags, mode)                                  \
	do {                                                    \
		if (((flags) & O_CREAT) ||                      \
		    ((flags) & O_TMPFILE) == O_TMPFILE) {       \
			va_list ap_;                            \
			va_start(ap_, flags);                   \
			mode = va_arg(ap_, int);                \
			va_end(ap_);                            \
		}                                               \
	} while (0)

SHIM_API int open(const char *path, int flags, ...)
{
	int mode = 0, fd = open_common(path, flags);

	NEXT(open);
	OPEN_MODE(flags, mode);
	return fd >= 0 ? fd : next_open(path, flags, mode);
}

SHIM_API int open64(const char *path, int flags, ...)
{
	int mode = 0, fd = open_common(path, flags);

	NEXT(open64);
	OPEN_MODE(flags, mode);
	return fd >= 0 ? fd : next_open64(path, flags, mode);
}

SHIM_API int openat(int dir, const char *path, int flags, ...)
{
	int mode = 0, fd = open_common(path, flags);

	NEXT(openat);
	OPEN_MODE(flags, mode);
	return fd >= 0 ? fd : next_openat(dir, path, flags, mode);
}

SHIM_API int __open_2(const char *path, int flags)
{
	int fd = open_common(path, flags);

	NEXT(__open_2);
	return fd >= 0 ? fd : next___open_2(path, flags);
}

SHIM_API int __open64_2(const char *path, int flags)
{
	int fd = open_common(path, flags);

	NEXT(__open64_2);
	return fd >= 0 ? fd : next___open64_2(path, flags);
}

static FILE *fopen_common(const char *path, const char *mode)
{
	int which = proc_file(path), fd;
	FILE *f;

	if (which < 0 || !mode || mode[0] != 'r' || strchr(mode, '+'))
		return NULL;
	fd = proc_open(which, strchr(mode, 'e') != NULL);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "r");
	if (!f)
		syscall(SYS_close, fd);
	return f;
}

SHIM_API FILE *fopen(const char *path, const char *mode)
{
	FILE *f = fopen_common(path, mode);

	NEXT(fopen);
	return f ? f : next_fopen(path, mode);
}

SHIM_API FILE *fopen64(const char *path, const char *mode)
{
	FILE *f = fopen_common(path, mode);

	NEXT(fopen64);
	return f ? f : next_fopen64(path, mode);
}
