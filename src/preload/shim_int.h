/*
 * shim_int.h - what the files of the preloaded AF_IPX shim share: which
 * descriptors are IPX sockets, the control channel to `ipxlab stack`,
 * and the libc functions the shim stands in front of. The shim links
 * nothing of ipxlab but the protocol codec (src/stack/proto.c).
 */
#ifndef IPXLAB_SHIM_INT_H
#define IPXLAB_SHIM_INT_H

#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include "ipxlab/stack_proto.h"

#define SHIM_API __attribute__((visibility("default")))

/*
 * NEXT(name): next_name, the libc function this one hides, found once.
 * (memcpy: ISO C has no cast from dlsym's void * to a function.)
 */
#define NEXT(name)                                                  \
	static __typeof__(name) *next_##name;                       \
	if (!next_##name) {                                         \
		void *sym_ = dlsym(RTLD_NEXT, #name);               \
		memcpy(&next_##name, &sym_, sizeof(sym_));          \
	}

/* Is fd one of the stack's sockets? (cached; the cache is forgotten on
 * close, dup2 and dup3, and a new process image asks the kernel.) */
bool shim_ours(int fd);
void shim_mark(int fd, bool ours);
void shim_forget(int fd);
/* The connected bit the shim remembers (refreshed by shim_info). */
bool shim_connected(int fd);
void shim_set_connected(int fd, bool on);

/*
 * One control request. fd (or -1) goes with it; a descriptor in the reply
 * lands in *got (when got is not NULL; cloexec as asked). Returns the
 * stack's errno (0: done) with the reply body in body/len, or -1 when no
 * stack answers.
 */
int shim_ctl(const struct ipx_stack_req *req, int fd, uint8_t *body,
	     size_t cap, size_t *len, int *got, bool cloexec);
/* SIOCGSTAMP: the arrival time of the last datagram read on fd (the
 * kernel stamps each frame: SO_TIMESTAMP on the socket); ENOENT before
 * the first. */
struct timeval;
void shim_set_stamp(int fd, const struct timeval *tv);
int shim_stamp(int fd, struct timeval *out);

/* Tell the stack about a call it does not emulate (best effort). */
int shim_unsupported(const char *name);

/* INFO: bound/connected flags, type, local and peer address. */
struct shim_info {
	uint8_t flags, type;
	struct ipx_addr local, peer;
};
int shim_info(int fd, struct shim_info *out);

/* A sockaddr_ipx from an address and type, and back. */
struct sockaddr_ipx;
void shim_to_sipx(struct sockaddr_ipx *s, const struct ipx_addr *a,
		  uint8_t type);
void shim_from_sipx(const struct sockaddr_ipx *s, struct ipx_addr *a);
/*
 * Copies from and to pointers the program gave, through the kernel: 0, or
 * EFAULT for memory the program may not read or write (as the kernel's
 * copy_from_user / copy_to_user), never a SIGSEGV in the shim.
 */
int shim_copy_in(void *dst, const void *user, size_t n);
int shim_copy_out(void *user, const void *src, size_t n);
/* Copy a sockaddr_ipx out as getsockname() does: *len read, the name cut
 * to it, *len set to 16 (move_addr_to_user). 0, EFAULT or EINVAL. */
int shim_put_name(const struct sockaddr_ipx *s, struct sockaddr *to,
		  socklen_t *len);
/* The same with the length already read ('want'): the name cut to it,
 * then 16 in *len_out (the shim's) and/or *user_len (the program's). */
int shim_put_name_len(const struct sockaddr_ipx *s, struct sockaddr *to,
		      socklen_t want, socklen_t *len_out, socklen_t *user_len);

/* Set errno, return -1. */
int shim_fail(int err);

#endif
