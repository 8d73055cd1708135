/*
 * stack_proto.h - the protocol between `ipxlab stack` (the host's IPX
 * layer, src/stack) and the AF_IPX shim preloaded into programs
 * (src/preload), and where the stack listens. docs/stack.md explains it.
 *
 * Every emulated IPX socket is one end of an AF_UNIX SOCK_SEQPACKET
 * socketpair the stack made; the stack holds the other end. Only data
 * frames cross it, so poll/select/epoll see exactly the datagrams waiting.
 * Control requests (bind, connect, ioctls...) each use a fresh SEQPACKET
 * connection to the stack's listening socket, carrying the data socket
 * with SCM_RIGHTS; the stack finds its socket by the inode. One request,
 * one reply, then the connection is closed: nothing is shared between
 * processes but the data socket itself, so fork and exec need no care.
 *
 * Data frame, both directions: a 16-byte header, then the payload.
 *
 *   off size field
 *     0    1 op: 1 SEND (program to stack), 2 DATA (stack to program)
 *     1    1 flags (SEND): 1 the address is given (else the connected
 *            peer), 2 the packet type is given (else the socket's)
 *     2    1 packet type (DATA: the one received)
 *     3    1 zero
 *     4    4 network (big-endian): SEND destination, DATA source
 *     8    6 node
 *    14    2 socket (big-endian)
 *
 * Control request: op (1), three zero bytes, then the op's body.
 * Reply: op | 0x80, three zero bytes, errno (4, big-endian; 0 = done),
 * then the op's reply body. Addresses (ADDR) are 12 bytes: network (4),
 * node (6), socket (2), big-endian.
 *
 *   op            request body                  reply body
 *   1 OPEN        -                             - (and the data socket)
 *   2 BIND        ADDR                          ADDR bound
 *   3 CONNECT     ADDR, type (1)                -
 *   4 INFO        -                             flags (1: 1 bound,
 *                                               2 connected), type (1),
 *                                               two zero, ADDR local,
 *                                               ADDR peer
 *   5 SETTYPE     type (1)                      -
 *   6 IFSET       network (4), special (1),     -
 *                 frame (1), action (1), zero,
 *                 node (6), device (16)
 *   7 IFGET       frame (1), three zero,        network (4), node (6)
 *                 device (16)
 *   8 CFGSET      which (1: 0 auto-create,      -
 *                 1 auto-primary), value (1)
 *   9 CFGGET      -                             auto_select_primary (1),
 *                                               auto_create_interfaces (1)
 *  10 ROUTE       add (1: 1 add, 0 delete),     -
 *                 three zero, network (4),
 *                 router network (4),
 *                 router node (6)
 *  11 PROC        file (1: 0 interface,         the file's text
 *                 1 route, 2 socket)
 *  12 UNSUPPORTED the call's name (1-31 bytes)  -
 *
 * Ops 2-5 carry the data socket (SCM_RIGHTS); the stack learns the
 * caller's pid and uid from SO_PEERCRED. Frame types are Linux's
 * (IPX_STACK_LFRAME_*, the values of <netipx/ipx.h>).
 */
#ifndef IPXLAB_STACK_PROTO_H
#define IPXLAB_STACK_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipxlab/ipx.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_STACK_FRAME_HDR 16
#define IPX_STACK_REQ_HDR 4
#define IPX_STACK_REPLY_HDR 8
#define IPX_STACK_ADDR_LEN 12
#define IPX_STACK_DEVLEN 16
#define IPX_STACK_NAMELEN 32
/* The largest datagram payload, as Linux allowed (65535 - 30). */
#define IPX_STACK_MAX_PAYLOAD (65535 - IPX_HDR_LEN)
/* Largest control message either way (the /proc text included). */
#define IPX_STACK_MAX_CTL 65536

/* Linux's frame type numbers (sipx_type of SIOCSIFADDR). */
enum {
	IPX_STACK_LFRAME_NONE,
	IPX_STACK_LFRAME_SNAP,
	IPX_STACK_LFRAME_8022,
	IPX_STACK_LFRAME_ETHERII,
	IPX_STACK_LFRAME_8023,
	IPX_STACK_LFRAME_TR_8022,
};
/* Linux's sipx_special and sipx_action values. */
enum { IPX_STACK_SPECIAL_NONE, IPX_STACK_PRIMARY, IPX_STACK_INTERNAL };
enum { IPX_STACK_DLTITF, IPX_STACK_CRTITF };

enum { IPX_STACK_SEND = 1, IPX_STACK_DATA = 2 };
enum { IPX_STACK_F_ADDR = 1, IPX_STACK_F_TYPE = 2 };

enum ipx_stack_op {
	IPX_STACK_OPEN = 1,
	IPX_STACK_BIND,
	IPX_STACK_CONNECT,
	IPX_STACK_INFO,
	IPX_STACK_SETTYPE,
	IPX_STACK_IFSET,
	IPX_STACK_IFGET,
	IPX_STACK_CFGSET,
	IPX_STACK_CFGGET,
	IPX_STACK_ROUTE,
	IPX_STACK_PROC,
	IPX_STACK_UNSUPPORTED,
	IPX_STACK_REACH,
	IPX_STACK_OP_MAX = IPX_STACK_REACH,
};
#define IPX_STACK_REPLY_BIT 0x80

enum { IPX_STACK_PROC_INTERFACE, IPX_STACK_PROC_ROUTE, IPX_STACK_PROC_SOCKET };
enum { IPX_STACK_INFO_BOUND = 1, IPX_STACK_INFO_CONNECTED = 2 };

/* One data frame's header. */
struct ipx_stack_frame {
	uint8_t op, flags, type;
	struct ipx_addr addr;
};

/* One control request, decoded (only the op's fields are meaningful). */
struct ipx_stack_req {
	uint8_t op;
	struct ipx_addr addr;	/* BIND, CONNECT, REACH; ROUTE: network in net,
				 * router in gw */
	struct ipx_addr gw;
	uint8_t type;		/* CONNECT, SETTYPE; IFSET/IFGET frame */
	uint8_t special, action;	/* IFSET; ROUTE action in 'action' */
	uint8_t which, value;	/* CFGSET; PROC which */
	char dev[IPX_STACK_DEVLEN + 1];	/* IFSET/IFGET, NUL-terminated */
	char name[IPX_STACK_NAMELEN];	/* UNSUPPORTED, NUL-terminated */
};

/* A decoded reply: errno, and the body (borrowed from the message). */
struct ipx_stack_reply {
	uint8_t op;
	uint32_t err;
	const uint8_t *body;
	size_t len;
};

void ipx_stack_put_addr(uint8_t *p, const struct ipx_addr *a);
void ipx_stack_get_addr(const uint8_t *p, struct ipx_addr *a);

/* Data frames: encode the 16-byte header; decode one (IPX_EINVAL for a
 * short frame, an unknown op or nonzero reserved bits). */
void ipx_stack_frame_encode(uint8_t out[IPX_STACK_FRAME_HDR],
			    const struct ipx_stack_frame *f);
int ipx_stack_frame_decode(const uint8_t *p, size_t len,
			   struct ipx_stack_frame *out);

/* Requests: encode into out (returns the length, 0 if cap is short);
 * decode (IPX_EINVAL for a wrong length, unknown op, nonzero padding or
 * a bad name). */
size_t ipx_stack_req_encode(const struct ipx_stack_req *req, uint8_t *out,
			    size_t cap);
int ipx_stack_req_decode(const uint8_t *p, size_t len,
			 struct ipx_stack_req *out);
/* Replies: header into out[0..7]; decode checks the header only. */
void ipx_stack_reply_head(uint8_t out[IPX_STACK_REPLY_HDR], uint8_t op,
			  uint32_t err);
int ipx_stack_reply_decode(const uint8_t *p, size_t len,
			   struct ipx_stack_reply *out);
/* Does the op carry the data socket? */
bool ipx_stack_op_has_fd(uint8_t op);

/*
 * The stack's socket path: $IPXLAB_STACK, else /run/ipxlab/stack for
 * root, else $XDG_RUNTIME_DIR/ipxlab-stack, else /tmp/ipxlab-stack-UID.
 * Returns 0, or -1 if the path does not fit.
 */
int ipx_stack_default_path(char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
